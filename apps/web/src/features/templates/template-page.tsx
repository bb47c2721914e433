import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadingOverlay } from '../../components/ui/loading-overlay.tsx';
import { NEW_RECORD_ID, PATHS } from '../../paths.ts';
import { TemplateForm } from './template-form.tsx';
import { templateKeys, templatesApi } from './templates-api.ts';

/** /template/:id — create (`new`) or update a report template; DEFAULT ones open read-only. */
export function TemplatePage() {
  const { id = NEW_RECORD_ID } = useParams();
  const isNew = id === NEW_RECORD_ID;
  const template = useQuery({
    queryKey: templateKeys.item(id),
    queryFn: ({ signal }) => templatesApi.get(id, signal),
    enabled: !isNew,
    retry: false,
  });

  if (isNew) return <TemplateForm key={NEW_RECORD_ID} template={null} />;
  if (template.data) return <TemplateForm key={template.data.id} template={template.data} />;
  if (template.isError) {
    const notFound =
      isApiError(template.error) && (template.error.status === 404 || template.error.status === 400);
    return (
      <Page title="Template">
        <EmptyState
          icon={FileText}
          title={notFound ? 'Template not found' : 'The template could not be loaded'}
          action={
            <Button variant="secondary" asChild>
              <Link to={PATHS.templates}>Back to templates</Link>
            </Button>
          }
        >
          {notFound
            ? 'It may have been deleted, or it is not one you may open.'
            : errorMessage(template.error, 'Failed to fetch template')}
        </EmptyState>
      </Page>
    );
  }
  return (
    <div className="relative min-h-64">
      <LoadingOverlay loadingText="Loading template" />
    </div>
  );
}
