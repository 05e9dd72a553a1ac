export default function AutoOrderHistoryPage() {
  return <div>AutoOrderHistoryPage</div>;
}
