export default function PointPage() {
  return <div>PointPage</div>;
}
