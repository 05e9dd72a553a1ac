export default function ServiceTermsPage() {
  return <div>ServiceTermsPage</div>;
}
