import { Building2 } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /organisation: organisation and facility settings. */
export function OrganisationPage() {
  return (
    <UnavailableScreen
      title="Organisation"
      icon={Building2}
      message="Organisation settings are not available yet."
    />
  );
}
