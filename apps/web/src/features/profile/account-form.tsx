import { label, userSignaturePath, type TManagedUser } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { authStore, type TAuthUser, type TRoleDetails } from '../../stores/auth-store.ts';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { TextAreaField } from '../users/form-parts.tsx';
import { SignatureField } from '../users/signature-field.tsx';
import {
  USER_FIELDS,
  checkDraft,
  defaultDisplayName,
  userFormData,
  type TUserDraft,
  type TUserField,
} from '../users/user-form.ts';
import { SAVE_USER_FAILED, usersApi } from '../users/users-api.ts';

/** The form as the signed-in user's own record fills it. */
export function ownDraft(user: TAuthUser, roleDetails: TRoleDetails | null): TUserDraft {
  return {
    role: user.role ?? '',
    user_type: user.user_type ?? roleDetails?.radiologist_details?.user_type ?? 'RADIOLOGIST',
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: user.display_name,
    email: user.email,
    radiologist_description:
      user.radiologist_description ?? roleDetails?.radiologist_details?.description ?? '',
    facility_fks: [...user.facility_fks],
  };
}

/** The signed-in user as saved, for the rest of the app (header, pickers) to show at once. */
function storeSaved(saved: TManagedUser): void {
  const state = authStore.getState();
  if (!state.user || state.user.id !== saved.id) return;
  state.setVerifiedUser({
    user: {
      ...state.user,
      first_name: saved.first_name,
      last_name: saved.last_name,
      display_name: saved.display_name,
      radiologist_description: saved.radiologist_description,
      has_signature: saved.signature_url !== null,
      updated_at: saved.updated_at,
    },
    roleDetails: state.roleDetails ?? {
      radiologist_details: null,
      transcriptionist_details: null,
      facility_details: null,
    },
    facilities: state.facilities,
    capabilities: state.capabilities,
  });
}

type TErrors = Partial<Record<TUserField, string>>;

/**
 * One's own name, display name and (radiologists) description and signature, saved with POST /user
 * for oneself: the role, status and e-mail are an administrator's to change and are never sent.
 */
export function AccountForm({ user, roleDetails }: { user: TAuthUser; roleDetails: TRoleDetails | null }) {
  const [start, setStart] = useState(() => ownDraft(user, roleDetails));
  const [draft, setDraft] = useState(start);
  const [errors, setErrors] = useState<TErrors>({});
  const [signature, setSignature] = useState<File | null>(null);
  const [removeSignature, setRemoveSignature] = useState(false);
  const radiologist = user.role === 'RADIOLOGIST';

  const save = useMutation({
    mutationFn: (form: FormData) => usersApi.save(form),
    onSuccess: (response) => {
      storeSaved(response.user);
      const saved = { ...draft, display_name: response.user.display_name };
      setStart(saved);
      setDraft(saved);
      setSignature(null);
      setRemoveSignature(false);
      notify('success', 'Your profile was saved');
    },
    onError: (error) => {
      const fields = pickFieldErrors(apiFieldErrors(error), USER_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) notify('error', errorMessage(error, SAVE_USER_FAILED));
    },
  });

  const set =
    (key: 'first_name' | 'last_name' | 'display_name' | 'radiologist_description') => (value: string) => {
      setDraft((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key]: undefined }));
    };
  const changed =
    signature !== null ||
    removeSignature ||
    (['first_name', 'last_name', 'display_name', 'radiologist_description'] as const).some(
      (key) => draft[key].trim() !== start[key].trim(),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkDraft(draft);
    // Only the fields of this form: the role's facilities are an administrator's to fix.
    const shown = pickFieldErrors(found, ['first_name', 'last_name'] as const);
    setErrors(shown);
    if (Object.keys(shown).length > 0) return;
    save.mutate(
      userFormData(draft, {
        byUserId: user.id,
        original: { id: user.id, draft: start },
        self: true,
        signature,
        deleteSignature: removeSignature,
      }),
    );
  };
  const pending = save.isPending;

  return (
    <form aria-label="Your details" noValidate onSubmit={submit} className="flex flex-col gap-4">
      <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-[13px]">
        <dt className="text-fg-muted">E-mail</dt>
        <dd className="truncate text-fg">{user.email}</dd>
        <dt className="text-fg-muted">Role</dt>
        <dd className="text-fg">
          {user.role ? label(user.role) : 'No role assigned'}
          {user.user_type === 'REPORTER' ? ' (reporter)' : ''}
        </dd>
      </dl>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          value={draft.first_name}
          error={errors.first_name}
          disabled={pending}
          autoComplete="given-name"
          onChange={(event) => set('first_name')(event.target.value)}
        />
        <TextField
          label="Last name"
          value={draft.last_name}
          error={errors.last_name}
          disabled={pending}
          autoComplete="family-name"
          onChange={(event) => set('last_name')(event.target.value)}
        />
      </div>
      <TextField
        label="Display name"
        value={draft.display_name}
        error={errors.display_name}
        disabled={pending}
        placeholder={defaultDisplayName(draft)}
        hint="How others see you in the app and, for radiologists, the name on signed reports."
        onChange={(event) => set('display_name')(event.target.value)}
      />
      {radiologist ? (
        <>
          <TextAreaField
            label="Description"
            value={draft.radiologist_description}
            error={errors.radiologist_description}
            disabled={pending}
            hint="Qualifications and registration, one per line, printed under your name."
            onChange={(event) => set('radiologist_description')(event.target.value)}
          />
          <SignatureField
            storedPath={user.has_signature ? userSignaturePath(user.id) : null}
            version={user.updated_at}
            picked={signature}
            onPick={(file) => {
              setSignature(file);
              setErrors((current) => ({ ...current, signature_file: undefined }));
            }}
            removed={removeSignature}
            onRemovedChange={setRemoveSignature}
            displayName={draft.display_name.trim() || defaultDisplayName(draft)}
            description={draft.radiologist_description}
            error={errors.signature_file}
            disabled={pending}
            whose="your"
          />
        </>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={pending || !changed}>
          {pending ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
          Save details
        </Button>
      </div>
    </form>
  );
}
