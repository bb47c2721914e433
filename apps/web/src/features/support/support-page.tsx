import { LifeBuoy } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /support: the support e-mail form. */
export function SupportPage() {
  return (
    <UnavailableScreen title="Support" icon={LifeBuoy} message="The support form is not available yet." />
  );
}
