export default function OrderHistoryPage() {
  return <div>OrderHistoryPage</div>;
}
