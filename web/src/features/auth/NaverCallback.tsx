export default function NaverCallback() {
  return <div>NaverCallback</div>;
}
