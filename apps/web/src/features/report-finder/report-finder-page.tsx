import { FileSearch } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /report-finder: search across reports. */
export function ReportFinderPage() {
  return (
    <UnavailableScreen
      title="Report finder"
      icon={FileSearch}
      message="The report finder is not available yet."
    />
  );
}
