import type { TFacility, TPacsArchive, TPacsArchiveKind, TPacsAuthKind } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useFormDraft } from '../../components/hooks/use-form-draft.ts';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { SelectField } from '../templates/form-fields.tsx';
import { FacilityChecklist } from '../users/form-parts.tsx';
import {
  ARCHIVE_FIELDS,
  archiveBody,
  checkDraft,
  draftOf,
  keepsSecret,
  type TArchiveDraft,
  type TArchiveField,
} from './archive-form.ts';
import { SAVE_ARCHIVE_FAILED, archiveKeys, archivesApi } from './archives-api.ts';

export interface ArchiveFormDialogProps {
  /** The archive to edit; null adds one. */
  archive: TPacsArchive | null;
  /** The organisation's facilities (an admin's). */
  facilities: readonly TFacility[];
  onClose: () => void;
}

const KIND_LABELS: Record<TPacsArchiveKind, string> = {
  orthanc: 'Orthanc',
  dicomweb: 'Other DICOMweb archive',
};
const AUTH_LABELS: Record<TPacsAuthKind, string> = {
  none: 'None',
  basic: 'User name and password',
  bearer: 'Bearer token',
};

/** Add or edit an image archive: where it is, how to sign in to it, which facilities it serves. */
export function ArchiveFormDialog({ archive, facilities, onClose }: ArchiveFormDialogProps) {
  const queryClient = useQueryClient();
  const creating = archive === null;
  const { draft, errors, refusals, set, refuse, refusedByServer } = useFormDraft<
    TArchiveDraft,
    TArchiveField
  >(() => draftOf(archive), ARCHIVE_FIELDS);

  const save = useMutation({
    mutationFn: () => {
      const body = archiveBody(draft, archive);
      return archive ? archivesApi.update(archive.id, body) : archivesApi.create(body);
    },
    onSuccess: async (saved) => {
      notify('success', creating ? `${saved.name} was added` : `${saved.name} was saved`);
      await queryClient.invalidateQueries({ queryKey: archiveKeys.all });
      onClose();
    },
    onError: (error) => refusedByServer(error, SAVE_ARCHIVE_FAILED),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!refuse(checkDraft(draft, archive))) return;
    save.mutate();
  };

  const pending = save.isPending;
  const title = creating ? 'Add an image archive' : `Edit ${archive.name}`;
  const selected = draft.facilities.map((facility) => facility.facility_id);
  const facilityName = new Map(facilities.map((facility) => [facility.id, facility.name]));
  const setFacilities = (ids: string[]) => {
    const names = new Map(draft.facilities.map((f) => [f.facility_id, f.institution_name]));
    set('facilities')(ids.map((id) => ({ facility_id: id, institution_name: names.get(id) ?? '' })));
    if (draft.default_facility_id && !ids.includes(draft.default_facility_id)) set('default_facility_id')('');
  };
  const stored =
    keepsSecret(draft, archive) || (archive?.has_secret === true && archive.auth_kind === draft.auth_kind);
  const secretLabel = draft.auth_kind === 'bearer' ? 'Token' : 'Password';

  return (
    <FormDialog
      title={title}
      description="The password or token is stored encrypted on the server and never shown again."
      className="w-[min(94vw,42rem)]"
      pending={pending}
      submitLabel={creating ? 'Add archive' : 'Save'}
      refusals={refusals}
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          value={draft.name}
          error={errors.name}
          disabled={pending}
          autoComplete="off"
          maxLength={120}
          onChange={(event) => set('name')(event.target.value)}
        />
        <SelectField
          label="Kind"
          value={draft.kind}
          error={errors.kind}
          disabled={pending}
          hint={
            draft.kind === 'orthanc'
              ? 'New studies arrive through Orthanc’s change feed.'
              : 'Polled over QIDO-RS.'
          }
          onChange={(event) => set('kind')(event.target.value as TPacsArchiveKind)}
        >
          {(Object.keys(KIND_LABELS) as TPacsArchiveKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="DICOMweb URL"
        value={draft.dicomweb_url}
        error={errors.dicomweb_url}
        disabled={pending}
        autoComplete="off"
        placeholder="https://pacs.example.org/dicom-web"
        hint="The root of QIDO-RS, WADO-RS and STOW-RS, without credentials in it."
        onChange={(event) => set('dicomweb_url')(event.target.value)}
      />
      {draft.kind === 'orthanc' ? (
        <TextField
          label="Orthanc REST URL"
          value={draft.orthanc_url}
          error={errors.orthanc_url}
          disabled={pending}
          autoComplete="off"
          placeholder="https://pacs.example.org"
          onChange={(event) => set('orthanc_url')(event.target.value)}
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Authentication"
          value={draft.auth_kind}
          error={errors.auth_kind}
          disabled={pending}
          onChange={(event) => set('auth_kind')(event.target.value as TPacsAuthKind)}
        >
          {(Object.keys(AUTH_LABELS) as TPacsAuthKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {AUTH_LABELS[kind]}
            </option>
          ))}
        </SelectField>
        {draft.auth_kind === 'basic' ? (
          <TextField
            label="User name"
            value={draft.username}
            error={errors.username}
            disabled={pending}
            autoComplete="off"
            onChange={(event) => set('username')(event.target.value)}
          />
        ) : null}
      </div>
      {draft.auth_kind !== 'none' ? (
        <TextField
          label={secretLabel}
          type="password"
          value={draft.secret}
          error={errors.secret}
          disabled={pending}
          autoComplete="new-password"
          placeholder={stored ? 'stored — leave empty to keep' : ''}
          hint={
            stored ? `A ${secretLabel.toLowerCase()} is stored. Type a new one to replace it.` : undefined
          }
          onChange={(event) => set('secret')(event.target.value)}
        />
      ) : null}
      <FacilityChecklist
        facilities={facilities}
        selected={selected}
        error={errors.facilities}
        disabled={pending}
        onChange={setFacilities}
      />
      {draft.facilities.length > 0 ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-[13px] font-medium text-fg">DICOM institution names</legend>
          <p className="-mt-1 text-xs text-fg-subtle">
            A study goes to the facility whose institution name it carries (empty: the facility’s own name).
          </p>
          {draft.facilities.map((facility, index) => (
            <TextField
              key={facility.facility_id}
              label={facilityName.get(facility.facility_id) ?? 'Facility'}
              value={facility.institution_name}
              disabled={pending}
              autoComplete="off"
              onChange={(event) =>
                set('facilities')(
                  draft.facilities.map((item, at) =>
                    at === index ? { ...item, institution_name: event.target.value } : item,
                  ),
                )
              }
            />
          ))}
        </fieldset>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Default facility"
          value={draft.default_facility_id}
          error={errors.default_facility_id}
          disabled={pending}
          hint="For studies whose institution matches none."
          onChange={(event) => set('default_facility_id')(event.target.value)}
        >
          <option value="">None</option>
          {draft.facilities.map((facility) => (
            <option key={facility.facility_id} value={facility.facility_id}>
              {facilityName.get(facility.facility_id) ?? facility.facility_id}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Poll every (seconds)"
          type="number"
          inputMode="numeric"
          min={5}
          max={3600}
          value={draft.poll_interval_seconds}
          error={errors.poll_interval_seconds}
          disabled={pending}
          onChange={(event) => set('poll_interval_seconds')(event.target.value)}
        />
      </div>
      <Switch
        checked={draft.enabled}
        onCheckedChange={set('enabled')}
        disabled={pending}
        className="flex items-center justify-between gap-3 rounded-md border border-line px-3 py-2 text-left text-[13px] text-fg"
      >
        <span>
          <span className="block font-medium">Synchronise</span>
          <span className="block text-xs text-fg-subtle">Off: the archive is kept but not read.</span>
        </span>
      </Switch>
    </FormDialog>
  );
}
