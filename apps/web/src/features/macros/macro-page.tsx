import { TextCursorInput } from 'lucide-react';
import { useParams } from 'react-router';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /macro/:id — create or update a text macro. */
export function MacroPage() {
  const { id = '' } = useParams();
  return (
    <UnavailableScreen
      title="Macro"
      icon={TextCursorInput}
      message={`Editing macro ${id} is not available yet.`}
    />
  );
}
