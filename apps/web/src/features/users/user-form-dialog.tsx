import {
  RADIOLOGIST_USER_TYPES,
  label,
  type TFacility,
  type TManagedUser,
  type TRole,
  type TSaveUserResponse,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useFormDraft } from '../../components/hooks/use-form-draft.ts';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { SelectField } from '../templates/form-fields.tsx';
import { FacilityChecklist, TextAreaField } from './form-parts.tsx';
import { SignatureField } from './signature-field.tsx';
import {
  USER_FIELDS,
  checkDraft,
  defaultDisplayName,
  draftOf,
  existingUser,
  roleHasFacilities,
  userFormData,
  type TUserDraft,
  type TUserField,
} from './user-form.ts';
import { SAVE_USER_FAILED, userKeys, usersApi } from './users-api.ts';

export interface UserFormDialogProps {
  /** The user to edit; null creates one. */
  user: TManagedUser | null;
  onClose: () => void;
  /** The roles the caller may give (the first is the default of a new user). */
  roles: readonly TRole[];
  /** The facilities the caller may assign. */
  facilities: readonly TFacility[];
  callerId: string;
  organisationId: string;
  onSaved?: (response: TSaveUserResponse) => void;
}

/** Create or edit a user (POST /user): role and its details, facilities, names, e-mail, signature. */
export function UserFormDialog({
  user,
  onClose,
  roles,
  facilities,
  callerId,
  organisationId,
  onSaved,
}: UserFormDialogProps) {
  const queryClient = useQueryClient();
  const creating = user === null;
  const self = user?.id === callerId;
  const { draft, errors, setErrors, refusals, set, refuse, refusedByServer } = useFormDraft<
    TUserDraft,
    TUserField
  >(() => draftOf(user, roles.length === 1 ? roles[0] : ''), USER_FIELDS);
  const [signature, setSignature] = useState<File | null>(null);
  const [removeSignature, setRemoveSignature] = useState(false);

  const save = useMutation({
    mutationFn: (form: FormData) => usersApi.save(form),
    onSuccess: async (response) => {
      notify(
        'success',
        response.created
          ? `${response.user.display_name} was added${response.invitation_sent ? `; an invitation was sent to ${response.user.email}` : ''}`
          : `${response.user.display_name} was saved`,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onSaved?.(response);
      onClose();
    },
    onError: (error) => refusedByServer(error, SAVE_USER_FAILED),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!refuse(checkDraft(draft))) return;
    save.mutate(
      userFormData(draft, {
        byUserId: callerId,
        original: user ? existingUser(user) : null,
        organisationId,
        self,
        signature,
        deleteSignature: removeSignature,
      }),
    );
  };

  // A role the caller may not give (someone else's admin) still shows, read-only.
  const roleChoices = draft.role !== '' && !roles.includes(draft.role) ? [draft.role, ...roles] : roles;
  const radiologist = draft.role === 'RADIOLOGIST';
  const pending = save.isPending;
  const title = creating ? 'Add a user' : `Edit ${user.display_name}`;

  return (
    <FormDialog
      title={title}
      description={
        creating
          ? 'They get an e-mail with a link to set their own password.'
          : self
            ? 'Your own role and status are changed by another administrator.'
            : user.email
      }
      className="w-[min(94vw,40rem)]"
      pending={pending}
      submitLabel={creating ? 'Add and invite' : 'Save'}
      refusals={refusals}
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Role"
          value={draft.role}
          error={errors.role}
          disabled={pending || self || (draft.role !== '' && !roles.includes(draft.role))}
          onChange={(event) => set('role')(event.target.value as TRole | '')}
        >
          {draft.role === '' ? <option value="">Choose a role</option> : null}
          {roleChoices.map((role) => (
            <option key={role} value={role}>
              {label(role)}
            </option>
          ))}
        </SelectField>
        {radiologist ? (
          <SelectField
            label="User type"
            value={draft.user_type}
            error={errors.user_type}
            disabled={pending || self}
            hint="Reporters always see their own studies."
            onChange={(event) => set('user_type')(event.target.value as TUserDraft['user_type'])}
          >
            {RADIOLOGIST_USER_TYPES.map((type) => (
              <option key={type} value={type}>
                {label(type)}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          value={draft.first_name}
          error={errors.first_name}
          disabled={pending}
          autoComplete="off"
          onChange={(event) => set('first_name')(event.target.value)}
        />
        <TextField
          label="Last name"
          value={draft.last_name}
          error={errors.last_name}
          disabled={pending}
          autoComplete="off"
          onChange={(event) => set('last_name')(event.target.value)}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="E-mail"
          type="email"
          value={draft.email}
          error={errors.email}
          disabled={pending || self}
          autoComplete="off"
          onChange={(event) => set('email')(event.target.value)}
        />
        <TextField
          label="Display name"
          value={draft.display_name}
          error={errors.display_name}
          disabled={pending}
          placeholder={defaultDisplayName(draft) || 'First and last name'}
          hint="On reports and in pickers."
          onChange={(event) => set('display_name')(event.target.value)}
        />
      </div>
      {roleHasFacilities(draft.role) ? (
        <FacilityChecklist
          facilities={facilities}
          selected={draft.facility_fks}
          single={draft.role === 'FACILITY_ADMIN'}
          error={errors.facility_fks}
          disabled={pending || self}
          onChange={set('facility_fks')}
        />
      ) : null}
      {radiologist ? (
        <>
          <TextAreaField
            label="Description"
            value={draft.radiologist_description}
            error={errors.radiologist_description}
            disabled={pending}
            hint="Qualifications and registration, one per line, printed under the name."
            onChange={(event) => set('radiologist_description')(event.target.value)}
          />
          <SignatureField
            storedPath={user?.signature_url ?? null}
            version={user?.updated_at ?? ''}
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
          />
        </>
      ) : null}
    </FormDialog>
  );
}
