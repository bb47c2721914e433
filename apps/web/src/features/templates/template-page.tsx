import { FileText } from 'lucide-react';
import { useParams } from 'react-router';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /template/:id — create or update a report template. */
export function TemplatePage() {
  const { id = '' } = useParams();
  return (
    <UnavailableScreen
      title="Template"
      icon={FileText}
      message={`Editing template ${id} is not available yet.`}
    />
  );
}
