import { House } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** / : the landing screen after sign-in. */
export function HomePage() {
  return <UnavailableScreen title="Home" icon={House} message="The home dashboard is not available yet." />;
}
