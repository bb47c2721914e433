import { ListChecks } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /worklist: the list of imaging studies. */
export function WorklistPage() {
  return (
    <UnavailableScreen title="Worklist" icon={ListChecks} message="The worklist is not available yet." />
  );
}
