import { privacyPolicy } from './privacy-policy.ts';
import { TermsView } from './TermsView.tsx';

export default function PrivacyPage() {
  return <TermsView doc={privacyPolicy} />;
}
