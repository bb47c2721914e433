import type { TPatchPatientBody, TPatient } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Select } from '../../components/ui/select.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { UPDATE_PATIENT_FAILED, patientsApi } from './patients-api.ts';

const FIELDS = ['name', 'patient_id', 'sex', 'birth_date', 'phone', 'email'] as const;
type TField = (typeof FIELDS)[number];
type TForm = Record<TField, string>;

function formOf(patient: TPatient): TForm {
  return {
    name: patient.name,
    patient_id: patient.patient_id,
    sex: patient.sex ?? '',
    birth_date: patient.birth_date ?? '',
    phone: patient.phone ?? '',
    email: patient.email ?? '',
  };
}

/** Only what changed, blanks as null (the server clears those fields). */
function changesOf(before: TForm, after: TForm): TPatchPatientBody {
  const body: Record<string, string | null> = {};
  for (const field of FIELDS) {
    const value = after[field].trim();
    if (value === before[field].trim()) continue;
    body[field] = value === '' ? null : value;
  }
  return body as TPatchPatientBody;
}

/**
 * Correct a patient record (PATCH /user/patient/{id}); its studies show the new details at once.
 * Refusals appear on the field the server names (a taken patient id, an invalid e-mail).
 */
export function PatientEditDialog({
  patient,
  onClose,
  onSaved,
}: {
  patient: TPatient;
  onClose: () => void;
  onSaved: (patient: TPatient) => void;
}) {
  const initial = formOf(patient);
  const [form, setForm] = useState<TForm>(initial);
  const [localErrors, setLocalErrors] = useState<Partial<Record<TField, string>>>({});
  const save = useMutation({
    mutationFn: (body: TPatchPatientBody) => patientsApi.update(patient.id, body),
    onSuccess: onSaved,
  });
  const serverErrors = save.isError ? pickFieldErrors(apiFieldErrors(save.error), FIELDS) : {};
  const errors = { ...serverErrors, ...localErrors };
  const generalError =
    save.isError && Object.keys(serverErrors).length === 0
      ? errorMessage(save.error, UPDATE_PATIENT_FAILED)
      : null;
  const set = (field: TField) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<TField, string>> = {};
    if (form.name.trim() === '') problems.name = 'Enter the name';
    if (form.patient_id.trim() === '') problems.patient_id = 'Enter the patient id';
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const body = changesOf(initial, form);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    save.mutate(body);
  };

  return (
    <FormDialog
      title={`Edit ${patient.name}`}
      description="Every study of this patient shows the corrected details."
      pending={save.isPending}
      submitLabel="Save"
      refusals={0}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextField
        label="Name"
        value={form.name}
        onChange={(e) => set('name')(e.target.value)}
        error={errors.name}
      />
      <TextField
        label="Patient ID"
        value={form.patient_id}
        onChange={(e) => set('patient_id')(e.target.value)}
        error={errors.patient_id}
      />
      <div className="grid grid-cols-2 gap-3">
        <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
          Sex
          <Select value={form.sex} onChange={(e) => set('sex')(e.target.value)} className="h-9">
            <option value="">Not recorded</option>
            <option value="M">Male</option>
            <option value="F">Female</option>
            <option value="O">Other</option>
          </Select>
          {errors.sex ? <span className="text-xs font-medium text-danger">{errors.sex}</span> : null}
        </label>
        <TextField
          label="Birth date"
          type="date"
          value={form.birth_date}
          onChange={(e) => set('birth_date')(e.target.value)}
          error={errors.birth_date}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Phone"
          value={form.phone}
          onChange={(e) => set('phone')(e.target.value)}
          error={errors.phone}
        />
        <TextField
          label="E-mail"
          type="email"
          value={form.email}
          onChange={(e) => set('email')(e.target.value)}
          error={errors.email}
        />
      </div>
      {generalError ? (
        <p role="alert" className="text-[13px] text-danger">
          {generalError}
        </p>
      ) : null}
    </FormDialog>
  );
}
