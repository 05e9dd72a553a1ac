import { serviceTerms } from './service-terms.ts';
import { TermsView } from './TermsView.tsx';

export default function ServiceTermsPage() {
  return <TermsView doc={serviceTerms} />;
}
