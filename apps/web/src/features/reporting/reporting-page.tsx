import { FilePenLine } from 'lucide-react';
import { useParams } from 'react-router';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /worklist/:worklistId — reporting for one worklist item. */
export function ReportingPage() {
  const { worklistId = '' } = useParams();
  return (
    <UnavailableScreen
      title="Reporting"
      icon={FilePenLine}
      message={`Reporting for worklist item ${worklistId} is not available yet.`}
    />
  );
}
