export default function ApiPage() {
  return <div>ApiPage</div>;
}
