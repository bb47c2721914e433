import {
  FALLBACK_ERROR_MESSAGES,
  MAX_MACRO_SHORT_KEY_LENGTH,
  ZCreateMacroBody,
  type TCreateMacroBody,
  type TMacro,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS, macroPath } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { ContentField, FormFooter, zodFieldErrors } from '../templates/form-fields.tsx';
import { ConfirmDeleteDialog } from '../templates/list-parts.tsx';
import { DELETE_MACRO_FAILED, macroKeys, macrosApi } from './macros-api.ts';

const FIELDS = ['short_key', 'display_name', 'value'] as const;
type TField = (typeof FIELDS)[number];
type TErrors = Partial<Record<TField, string>>;

interface TDraft {
  short_key: string;
  display_name: string;
  value: string;
}

/** The body of POST /radiologist/macro for a draft (PATCH sends the same fields but user_fk). */
export function createBody(draft: TDraft, userId: string): TCreateMacroBody {
  return {
    short_key: draft.short_key.trim(),
    value: draft.value,
    user_fk: userId,
    display_name: draft.display_name.trim() || null,
  };
}

/** The macro editor: short key (letters and digits), display name, and the text it expands to. */
export function MacroForm({ macro, userId }: { macro: TMacro | null; userId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TDraft>(() => ({
    short_key: macro?.short_key ?? '',
    display_name: macro?.display_name ?? '',
    value: macro?.value ?? '',
  }));
  const [errors, setErrors] = useState<TErrors>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  const valueIds = { label: useId(), error: useId() };

  const save = useMutation({
    mutationFn: (body: TCreateMacroBody) =>
      macro
        ? macrosApi.update(macro.id, {
            short_key: body.short_key,
            value: body.value,
            display_name: body.display_name ?? null,
          })
        : macrosApi.create(body),
    onSuccess: async (saved) => {
      notify('success', macro ? 'Macro saved' : 'Macro created');
      queryClient.setQueryData<TMacro[]>(macroKeys.list(userId), (current) =>
        current ? [...current.filter((entry) => entry.id !== saved.id), saved] : current,
      );
      await queryClient.invalidateQueries({ queryKey: macroKeys.all });
      if (!macro) await navigate(macroPath(saved.id), { replace: true });
    },
    onError: (error) => {
      const fields = pickFieldErrors(apiFieldErrors(error), FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.createMacro));
      }
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) => macrosApi.remove(id),
    onSuccess: async () => {
      notify('success', 'Macro deleted');
      await queryClient.invalidateQueries({ queryKey: macroKeys.all });
      await navigate(PATHS.macros);
    },
    onError: (error) => {
      setConfirmDelete(false);
      notify('error', errorMessage(error, DELETE_MACRO_FAILED));
    },
  });

  function change(key: keyof TDraft, value: string): void {
    setDraft((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const body = createBody(draft, userId);
    const checked = ZCreateMacroBody.safeParse(body);
    if (!checked.success) {
      setErrors(pickFieldErrors(zodFieldErrors(checked.error.issues), FIELDS));
      return;
    }
    setErrors({});
    save.mutate(body);
  }

  const busy = save.isPending || remove.isPending;

  return (
    <Page
      title={macro ? `Macro ${macro.short_key}` : 'New macro'}
      description="Type the short key in a report, then Space or Tab: the key is replaced by this text."
      actions={
        <Button variant="ghost" asChild>
          <Link to={PATHS.macros}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Macros
          </Link>
        </Button>
      }
    >
      <form className="flex flex-col gap-5" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <fieldset disabled={busy} className="grid grid-cols-1 gap-4 md:grid-cols-3">
          <legend className="sr-only">Macro details</legend>
          <TextField
            label="Short key"
            name="short_key"
            required
            autoFocus={macro === null}
            autoComplete="off"
            spellCheck={false}
            maxLength={MAX_MACRO_SHORT_KEY_LENGTH}
            className="[&_input]:font-mono"
            value={draft.short_key}
            onChange={(event) => change('short_key', event.target.value)}
            error={errors.short_key}
            hint="Letters and digits only, e.g. nad or cxr1."
          />
          <TextField
            className="md:col-span-2"
            label="Display name"
            name="display_name"
            maxLength={200}
            placeholder="e.g. Normal chest X-ray"
            value={draft.display_name}
            onChange={(event) => change('display_name', event.target.value)}
            error={errors.display_name}
          />
        </fieldset>
        <ContentField label="Value" labelId={valueIds.label} errorId={valueIds.error} error={errors.value}>
          <RichTextEditor
            value={draft.value}
            onChange={(html) => change('value', html)}
            ariaLabel="Macro value"
            placeholder="The text the short key expands to"
            minHeight={200}
            invalid={Boolean(errors.value)}
            describedBy={errors.value ? valueIds.error : undefined}
          />
        </ContentField>
        <FormFooter
          onDelete={macro?.abilities.change ? () => setConfirmDelete(true) : undefined}
          cancelTo={PATHS.macros}
          busy={busy}
          saving={save.isPending}
          submitLabel={macro ? 'Save macro' : 'Create macro'}
        />
      </form>
      <ConfirmDeleteDialog
        subject={confirmDelete && macro ? `macro “${macro.short_key}”` : null}
        pending={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => macro && remove.mutate(macro.id)}
      />
    </Page>
  );
}
