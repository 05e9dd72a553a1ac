export default function OrderPage() {
  return <div>OrderPage</div>;
}
