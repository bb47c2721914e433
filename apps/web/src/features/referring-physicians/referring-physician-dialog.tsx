import type { TFacility, TReferringPhysician, TSaveReferringPhysicianBody } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Select } from '../../components/ui/select.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { SAVE_PHYSICIAN_FAILED, referringPhysiciansApi } from './referring-physicians-api.ts';

const FIELDS = ['name', 'email', 'phone', 'registration_number', 'status', 'facility_fks'] as const;
type TField = (typeof FIELDS)[number];

export interface ReferringPhysicianDialogProps {
  /** The physician to change, or null to create one. */
  physician: TReferringPhysician | null;
  /** The facilities the caller may assign (theirs; an administrator's: every one). */
  facilities: readonly TFacility[];
  /** An administrator may leave the facilities empty (the physician refers to every facility). */
  mayBeOrganisationWide: boolean;
  onClose: () => void;
  onSaved: (physician: TReferringPhysician, created: boolean) => void;
}

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * Create or edit a referring physician (POST /user/referring-physician, with `id` to edit). The
 * server's refusals appear on the field it names; anything else above the buttons.
 */
export function ReferringPhysicianDialog({
  physician,
  facilities,
  mayBeOrganisationWide,
  onClose,
  onSaved,
}: ReferringPhysicianDialogProps) {
  const [name, setName] = useState(physician?.name ?? '');
  const [email, setEmail] = useState(physician?.email ?? '');
  const [phone, setPhone] = useState(physician?.phone ?? '');
  const [registration, setRegistration] = useState(physician?.registration_number ?? '');
  const [status, setStatus] = useState(physician?.status ?? 'ACTIVE');
  const [facilityIds, setFacilityIds] = useState<string[]>(
    physician ? [...physician.facility_fks] : mayBeOrganisationWide ? [] : facilities.map((f) => f.id),
  );
  const [localErrors, setLocalErrors] = useState<Partial<Record<TField, string>>>({});

  const save = useMutation({
    mutationFn: (body: TSaveReferringPhysicianBody) => referringPhysiciansApi.save(body),
    onSuccess: (saved) => onSaved(saved, physician === null),
  });
  const serverErrors = save.isError ? pickFieldErrors(apiFieldErrors(save.error), FIELDS) : {};
  const errors = { ...serverErrors, ...localErrors };
  const generalError =
    save.isError && Object.keys(serverErrors).length === 0
      ? errorMessage(save.error, SAVE_PHYSICIAN_FAILED)
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<TField, string>> = {};
    if (name.trim() === '') problems.name = 'Enter the name';
    if (!mayBeOrganisationWide && facilityIds.length === 0)
      problems.facility_fks = 'Choose at least one facility';
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) return;
    save.mutate({
      ...(physician ? { id: physician.id } : {}),
      name: name.trim(),
      email: blankToNull(email),
      phone: blankToNull(phone),
      registration_number: blankToNull(registration),
      status,
      facility_fks: facilityIds,
    });
  };

  const toggleFacility = (id: string) =>
    setFacilityIds((ids) => (ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]));

  return (
    <FormDialog
      title={physician ? `Edit ${physician.name}` : 'New referring physician'}
      description="Referring physicians are chosen on orders; with an e-mail they can be invited to read their patients' final reports."
      pending={save.isPending}
      submitLabel={physician ? 'Save' : 'Create'}
      refusals={0}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
      <TextField
        label="E-mail"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
        hint="Needed to invite them to sign in."
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Phone"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          error={errors.phone}
        />
        <TextField
          label="Registration number"
          value={registration}
          onChange={(e) => setRegistration(e.target.value)}
          error={errors.registration_number}
        />
      </div>
      {physician ? (
        <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
          Status
          <Select
            value={status}
            onChange={(e) => setStatus(e.target.value === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE')}
          >
            <option value="ACTIVE">Active</option>
            <option value="INACTIVE">Inactive (hidden on orders)</option>
          </Select>
        </label>
      ) : null}
      <fieldset className="flex flex-col gap-1.5" aria-describedby="physician-facilities-hint">
        <legend className="mb-1 text-[13px] font-medium text-fg">Facilities</legend>
        {facilities.map((facility) => (
          <label key={facility.id} className="flex items-center gap-2 text-[13px] text-fg">
            <input
              type="checkbox"
              checked={facilityIds.includes(facility.id)}
              onChange={() => toggleFacility(facility.id)}
            />
            {facility.name}
          </label>
        ))}
        <p id="physician-facilities-hint" className="text-xs text-fg-subtle">
          {mayBeOrganisationWide
            ? 'None chosen: they refer to every facility of the organisation.'
            : 'The facilities they refer to.'}
        </p>
        {errors.facility_fks ? (
          <p className="text-xs font-medium text-danger">{errors.facility_fks}</p>
        ) : null}
      </fieldset>
      {errors.status ? <p className="text-xs font-medium text-danger">{errors.status}</p> : null}
      {generalError ? (
        <p role="alert" className="text-[13px] text-danger">
          {generalError}
        </p>
      ) : null}
    </FormDialog>
  );
}
