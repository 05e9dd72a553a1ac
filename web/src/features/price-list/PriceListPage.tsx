export default function PriceListPage() {
  return <div>PriceListPage</div>;
}
