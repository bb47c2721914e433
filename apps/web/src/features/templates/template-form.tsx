import {
  FALLBACK_ERROR_MESSAGES,
  MODALITIES,
  RECORD_STATUSES,
  ZSaveTemplateBody,
  type TModality,
  type TRecordStatus,
  type TTemplate,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Copy, Lock } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS, templatePath } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { ContentField, FormFooter, SelectField, zodFieldErrors } from './form-fields.tsx';
import { ConfirmDeleteDialog } from './list-parts.tsx';
import { ScopeBadge } from './scope-badge.tsx';
import { SCOPE_LABELS, savableScopes } from './scope-labels.ts';
import {
  DELETE_TEMPLATE_FAILED,
  templateKeys,
  templatesApi,
  type TSaveTemplateRequest,
} from './templates-api.ts';

const FIELDS = ['name', 'scope', 'modality', 'body_part', 'status', 'content'] as const;
type TField = (typeof FIELDS)[number];
type TErrors = Partial<Record<TField, string>>;

interface TDraft {
  name: string;
  scope: 'USER' | 'ORGANISATION';
  modality: TModality | '';
  body_part: string;
  status: TRecordStatus;
  content: string;
}

function draftOf(template: TTemplate | null): TDraft {
  return {
    name: template?.name ?? '',
    scope: template?.scope === 'ORGANISATION' ? 'ORGANISATION' : 'USER',
    modality: template?.modality ?? '',
    body_part: template?.body_part ?? '',
    status: template?.status ?? 'ACTIVE',
    content: template?.content ?? '',
  };
}

/** The body of POST /radiologist/template for a draft (`id` when it updates a template). */
export function saveBody(draft: TDraft, id?: string): TSaveTemplateRequest {
  return {
    ...(id ? { id } : {}),
    name: draft.name.trim(),
    scope: draft.scope,
    modality: draft.modality || null,
    body_part: draft.body_part.trim() || null,
    status: draft.status,
    content: draft.content,
  };
}

/** The template editor: its fields and content; read-only (with Duplicate) when the user may not change it. */
export function TemplateForm({ template }: { template: TTemplate | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayCreateShared = useAuth((state) => state.capabilities.create_organisation_templates);
  const [draft, setDraft] = useState<TDraft>(() => draftOf(template));
  const [errors, setErrors] = useState<TErrors>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  const contentIds = { label: useId(), error: useId() };
  // What the server says the user may do: with this template, and with new ones.
  const editable = template === null || template.abilities.change;
  const scopes = savableScopes(mayCreateShared);

  const afterSave = async (saved: TTemplate, message: string) => {
    notify('success', message);
    queryClient.setQueryData(templateKeys.item(saved.id), saved);
    await queryClient.invalidateQueries({ queryKey: templateKeys.lists() });
    if (saved.id !== template?.id) await navigate(templatePath(saved.id), { replace: template === null });
  };

  const save = useMutation({
    mutationFn: (body: TSaveTemplateRequest) => templatesApi.save(body),
    onSuccess: (saved) => afterSave(saved, template ? 'Template saved' : 'Template created'),
    onError: (error) => {
      const fields = pickFieldErrors(apiFieldErrors(error), FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.saveTemplate));
      }
    },
  });

  const duplicate = useMutation({
    mutationFn: (source: TTemplate) =>
      templatesApi.save({ ...saveBody(draftOf(source)), name: `${source.name} (copy)`, scope: 'USER' }),
    onSuccess: (saved) => afterSave(saved, 'Template duplicated: it is now one of your templates'),
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.saveTemplate)),
  });

  const remove = useMutation({
    mutationFn: (id: string) => templatesApi.remove(id),
    onSuccess: async (_data, id) => {
      notify('success', 'Template deleted');
      queryClient.removeQueries({ queryKey: templateKeys.item(id) });
      await queryClient.invalidateQueries({ queryKey: templateKeys.lists() });
      await navigate(PATHS.templates);
    },
    onError: (error) => {
      setConfirmDelete(false);
      notify('error', errorMessage(error, DELETE_TEMPLATE_FAILED));
    },
  });

  function change<TKey extends keyof TDraft>(key: TKey, value: TDraft[TKey]): void {
    setDraft((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (!editable) return;
    const body = saveBody(draft, template?.id);
    const checked = ZSaveTemplateBody.safeParse(body);
    if (!checked.success) {
      setErrors(pickFieldErrors(zodFieldErrors(checked.error.issues), FIELDS));
      return;
    }
    setErrors({});
    save.mutate(body);
  }

  const busy = save.isPending || duplicate.isPending || remove.isPending;
  const title = template ? template.name : 'New template';

  return (
    <Page
      title={title}
      description={
        editable
          ? 'Write the text a report starts from; it is inserted at the cursor or replaces the report.'
          : 'A read-only template. Duplicate it to make your own copy you can change.'
      }
      actions={
        <Button variant="ghost" asChild>
          <Link to={PATHS.templates}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Templates
          </Link>
        </Button>
      }
    >
      {template && !editable ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-line bg-surface-raised px-4 py-3">
          <p className="flex items-center gap-2 text-[13px] text-fg-muted">
            <Lock aria-hidden="true" className="size-4 text-fg-subtle" />
            <ScopeBadge scope={template.scope} />
            {template.scope === 'DEFAULT'
              ? 'Default templates ship with the product and cannot be changed.'
              : 'Only an administrator may change organisation templates.'}
          </p>
          <Button onClick={() => duplicate.mutate(template)} disabled={busy}>
            {duplicate.isPending ? <Spinner /> : <Copy aria-hidden="true" className="size-4" />}
            Duplicate as my template
          </Button>
        </div>
      ) : null}

      <form className="flex flex-col gap-5" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <fieldset disabled={!editable || busy} className="grid grid-cols-1 gap-4 md:grid-cols-6">
          <legend className="sr-only">Template details</legend>
          <TextField
            className="md:col-span-3"
            label="Name"
            name="name"
            required
            maxLength={200}
            autoFocus={template === null}
            value={draft.name}
            onChange={(event) => change('name', event.target.value)}
            error={errors.name}
          />
          <SelectField
            className="md:col-span-3"
            label="Scope"
            value={editable ? draft.scope : (template?.scope ?? draft.scope)}
            onChange={(event) => change('scope', event.target.value as TDraft['scope'])}
            error={errors.scope}
            hint={
              editable && scopes.includes('ORGANISATION')
                ? 'Organisation templates are offered to everyone in the organisation.'
                : undefined
            }
          >
            {(editable ? scopes : [template?.scope ?? 'USER']).map((scope) => (
              <option key={scope} value={scope}>
                {SCOPE_LABELS[scope]}
              </option>
            ))}
          </SelectField>
          <SelectField
            className="md:col-span-2"
            label="Modality"
            value={draft.modality}
            onChange={(event) => change('modality', event.target.value as TModality | '')}
            error={errors.modality}
          >
            <option value="">Any modality</option>
            {MODALITIES.map((modality) => (
              <option key={modality} value={modality}>
                {modality}
              </option>
            ))}
          </SelectField>
          <TextField
            className="md:col-span-2"
            label="Body part"
            name="body_part"
            maxLength={100}
            placeholder="e.g. Chest"
            value={draft.body_part}
            onChange={(event) => change('body_part', event.target.value)}
            error={errors.body_part}
          />
          <SelectField
            className="md:col-span-2"
            label="Status"
            value={draft.status}
            onChange={(event) => change('status', event.target.value as TRecordStatus)}
            error={errors.status}
            hint="Inactive templates are not offered in the report editor."
          >
            {RECORD_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status === 'ACTIVE' ? 'Active' : 'Inactive'}
              </option>
            ))}
          </SelectField>
        </fieldset>

        <ContentField
          label="Content"
          labelId={contentIds.label}
          errorId={contentIds.error}
          error={errors.content}
        >
          <RichTextEditor
            value={draft.content}
            onChange={(html) => change('content', html)}
            ariaLabel="Template content"
            placeholder="Findings, impression…"
            minHeight={360}
            editable={editable}
            invalid={Boolean(errors.content)}
            describedBy={errors.content ? contentIds.error : undefined}
          />
        </ContentField>

        {editable ? (
          <FormFooter
            onDelete={template ? () => setConfirmDelete(true) : undefined}
            cancelTo={PATHS.templates}
            busy={busy}
            saving={save.isPending}
            submitLabel={template ? 'Save template' : 'Create template'}
          />
        ) : null}
      </form>

      <ConfirmDeleteDialog
        subject={confirmDelete && template ? `template “${template.name}”` : null}
        pending={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => template && remove.mutate(template.id)}
      />
    </Page>
  );
}
