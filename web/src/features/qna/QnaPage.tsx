export default function QnaPage() {
  return <div>QnaPage</div>;
}
