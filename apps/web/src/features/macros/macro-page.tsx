import { useQuery } from '@tanstack/react-query';
import { TextCursorInput } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadingOverlay } from '../../components/ui/loading-overlay.tsx';
import { NEW_RECORD_ID, PATHS } from '../../paths.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { MacroForm } from './macro-form.tsx';
import { macroKeys, macrosApi } from './macros-api.ts';

/**
 * /macro/:id — create (`new`) or update one of the signed-in user's macros. The API has no single-macro
 * GET: the macro is found in the user's list (the same cache the macros screen and editor use).
 */
export function MacroPage() {
  const { id = NEW_RECORD_ID } = useParams();
  const userId = useAuth((state) => state.user?.id ?? '');
  const isNew = id === NEW_RECORD_ID;
  const list = useQuery({
    queryKey: macroKeys.list(userId),
    queryFn: ({ signal }) => macrosApi.list(userId, signal),
    enabled: !isNew && userId !== '',
    retry: false,
  });

  if (isNew) return <MacroForm key={NEW_RECORD_ID} macro={null} userId={userId} />;
  const macro = list.data?.find((entry) => entry.id === id);
  if (macro) return <MacroForm key={macro.id} macro={macro} userId={userId} />;
  if (list.data || list.isError) {
    return (
      <Page title="Macro">
        <EmptyState
          icon={TextCursorInput}
          title={list.isError ? 'The macro could not be loaded' : 'Macro not found'}
          action={
            <Button variant="secondary" asChild>
              <Link to={PATHS.macros}>Back to macros</Link>
            </Button>
          }
        >
          {list.isError
            ? errorMessage(list.error, 'Failed to fetch macros')
            : 'It may have been deleted, or it is not one of your macros.'}
        </EmptyState>
      </Page>
    );
  }
  return (
    <div className="relative min-h-64">
      <LoadingOverlay loadingText="Loading macro" />
    </div>
  );
}
