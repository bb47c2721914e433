import {
  FALLBACK_ERROR_MESSAGES,
  MODALITIES,
  PRIORITY_TAGS,
  priorityTagLabel,
  ZBirthDate,
} from '@ris/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPlus, UserSearch } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorMessage, validationFieldErrors } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField, inputClassName } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { worklistKeys } from '../worklist/worklist-api.ts';
import { DocumentsField } from './documents-field.tsx';
import { PatientPicker } from './patient-picker.tsx';
import {
  orderFormData,
  ordersApi,
  type TPatientOption,
  type TReferringPhysicianOption,
} from './orders-api.ts';

const EMPTY = {
  patient_name: '',
  patient_id: '',
  patient_sex: '',
  patient_birth_date: '',
  modality: 'CT',
  study: '',
  priority_tag: '',
  referring_physician_name: '',
  clinical_history: '',
};

type TFields = typeof EMPTY;

/** The organisation's referring physicians matching what was typed (plus any added just now). */
function usePhysicianOptions(
  search: string,
  created: TReferringPhysicianOption[],
): TReferringPhysicianOption[] {
  const term = search.trim();
  const { data } = useQuery({
    queryKey: ['referring-physicians', term],
    queryFn: ({ signal }) => ordersApi.referringPhysicians(term, signal),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  return useMemo(() => {
    const known = new Map<string, TReferringPhysicianOption>();
    for (const physician of [...created, ...(data?.items ?? [])]) known.set(physician.id, physician);
    return [...known.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [data, created]);
}

export interface CreateOrderDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** New order: an existing or new patient, the study, the referring physician and documents. */
export function CreateOrderDialog({ open, onOpenChange }: CreateOrderDialogProps) {
  const facilities = useAuth((state) => state.facilities);
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'search' | 'new'>('search');
  const [picked, setPicked] = useState<TPatientOption | null>(null);
  const [fields, setFields] = useState<TFields>(EMPTY);
  const [facility, setFacility] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<TReferringPhysicianOption[]>([]);
  const physicians = usePhysicianOptions(fields.referring_physician_name, created);
  const listId = useId();
  const facilityId = facility || picked?.facility_fk || facilities[0]?.id || '';
  const matchedPhysician = physicians.find(
    (physician) => physician.name.toLowerCase() === fields.referring_physician_name.trim().toLowerCase(),
  );

  const set = (name: keyof TFields) => (value: string) =>
    setFields((current) => ({ ...current, [name]: value }));
  const reset = (): void => {
    setMode('search');
    setPicked(null);
    setFields(EMPTY);
    setFacility('');
    setFiles([]);
    setProgress(null);
    setErrors({});
  };

  const createPhysician = useMutation({
    mutationFn: (name: string) => ordersApi.createReferringPhysician(name),
    onSuccess: (physician) => {
      setCreated((current) => [...current, { id: physician.id, name: physician.name }]);
      notify('success', `Added referring physician ${physician.name}`);
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to create referring physician')),
  });

  const submit = useMutation({
    mutationFn: () => {
      const patient = picked
        ? {
            patient_name: picked.name,
            patient_id: picked.patient_id,
            patient_sex: picked.sex ?? '',
            patient_birth_date: picked.birth_date ?? '',
          }
        : {};
      const form = orderFormData(
        {
          ...fields,
          ...patient,
          facility_fk: facilityId,
          referring_physician_fk: matchedPhysician?.id,
          referring_physician_name: matchedPhysician ? undefined : fields.referring_physician_name,
        },
        files,
      );
      setProgress(files.length > 0 ? 0 : null);
      return ordersApi.create(form, (event) => setProgress(event.percent));
    },
    onSuccess: async (item) => {
      notify('success', `Order ${item.accession_number} created for ${item.patient_name}`);
      reset();
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => {
      setProgress(null);
      setErrors(validationFieldErrors(error));
      notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.createWorklistOrder));
    },
  });

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!picked && fields.patient_name.trim() === '') missing.patient_name = 'Enter the patient name';
    if (!facilityId) missing.facility_fk = 'Choose a facility';
    if (!picked && fields.patient_birth_date && !ZBirthDate.safeParse(fields.patient_birth_date).success)
      missing.patient_birth_date = 'The birth date must not be in the future';
    setErrors(missing);
    if (Object.keys(missing).length === 0) submit.mutate();
  };

  const pending = submit.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) reset();
        if (!pending) onOpenChange(next);
      }}
      title="New order"
      description="The order joins the worklist as Ordered until the study arrives."
      className="w-[min(94vw,44rem)]"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={`${listId}-form`} disabled={pending}>
            {pending ? <Spinner /> : null}
            Create order
          </Button>
        </>
      }
    >
      <form id={`${listId}-form`} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-3 rounded-md border border-line p-3">
          <legend className="px-1 text-xs font-semibold tracking-wide text-fg-muted uppercase">
            Patient
          </legend>
          {picked ? (
            <div className="flex items-center justify-between gap-2 rounded-md bg-accent-soft px-3 py-2 text-[13px]">
              <span>
                <span className="font-medium text-fg">{picked.name}</span>
                <span className="ml-2 font-mono text-[12px] text-fg-muted">{picked.patient_id}</span>
              </span>
              <Button variant="ghost" size="sm" onClick={() => setPicked(null)}>
                Change
              </Button>
            </div>
          ) : (
            <>
              <div role="group" aria-label="Patient source" className="flex gap-1">
                {(
                  [
                    ['search', 'Existing patient', UserSearch],
                    ['new', 'New patient', UserPlus],
                  ] as const
                ).map(([value, text, Icon]) => (
                  <button
                    key={value}
                    type="button"
                    aria-pressed={mode === value}
                    onClick={() => setMode(value)}
                    className={cn(
                      'flex h-7 items-center gap-1.5 rounded-md px-2.5 text-[12px] font-medium',
                      mode === value ? 'bg-accent-soft text-fg' : 'text-fg-muted hover:bg-surface-hover',
                    )}
                  >
                    <Icon aria-hidden="true" className="size-3.5" />
                    {text}
                  </button>
                ))}
              </div>
              {mode === 'search' ? (
                <PatientPicker facilityIds={facilities.map((f) => f.id)} onPick={setPicked} />
              ) : (
                <div className="grid grid-cols-2 gap-3">
                  <TextField
                    label="Patient name"
                    required
                    value={fields.patient_name}
                    onChange={(event) => set('patient_name')(event.target.value)}
                    error={errors.patient_name}
                  />
                  <TextField
                    label="Patient ID"
                    hint="Left empty, an SM… identifier is generated."
                    value={fields.patient_id}
                    onChange={(event) => set('patient_id')(event.target.value)}
                    error={errors.patient_id}
                  />
                  <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
                    Sex
                    <Select
                      value={fields.patient_sex}
                      onChange={(event) => set('patient_sex')(event.target.value)}
                      className="h-9"
                    >
                      <option value="">Not given</option>
                      <option value="F">Female</option>
                      <option value="M">Male</option>
                      <option value="O">Other</option>
                    </Select>
                  </label>
                  <TextField
                    label="Birth date"
                    type="date"
                    value={fields.patient_birth_date}
                    onChange={(event) => set('patient_birth_date')(event.target.value)}
                    error={errors.patient_birth_date}
                  />
                </div>
              )}
              {mode === 'search' && errors.patient_name ? (
                <p className="text-xs font-medium text-danger">Pick a patient or add a new one</p>
              ) : null}
            </>
          )}
        </fieldset>

        <div className="grid grid-cols-2 gap-3">
          <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
            Facility
            <Select
              value={facilityId}
              onChange={(event) => setFacility(event.target.value)}
              className="h-9"
              aria-invalid={errors.facility_fk ? true : undefined}
            >
              {facilities.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
            Modality
            <Select
              value={fields.modality}
              onChange={(event) => set('modality')(event.target.value)}
              className="h-9"
            >
              {MODALITIES.map((modality) => (
                <option key={modality} value={modality}>
                  {modality}
                </option>
              ))}
            </Select>
          </label>
          <TextField
            label="Study"
            placeholder="e.g. CT Head without contrast"
            value={fields.study}
            onChange={(event) => set('study')(event.target.value)}
            error={errors.study}
          />
          <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
            Priority
            <Select
              value={fields.priority_tag}
              onChange={(event) => set('priority_tag')(event.target.value)}
              className="h-9"
            >
              <option value="">None</option>
              {PRIORITY_TAGS.map((tag) => (
                <option key={tag} value={tag}>
                  {priorityTagLabel(tag)}
                </option>
              ))}
            </Select>
          </label>
        </div>

        <div className="flex items-end gap-2">
          <TextField
            className="flex-1"
            label="Referring physician"
            list={`${listId}-physicians`}
            autoComplete="off"
            placeholder="Pick or type a name"
            value={fields.referring_physician_name}
            onChange={(event) => set('referring_physician_name')(event.target.value)}
            hint={
              matchedPhysician
                ? 'Known referring physician'
                : fields.referring_physician_name.trim()
                  ? 'Not known yet: add them, or send the name only'
                  : undefined
            }
          />
          <datalist id={`${listId}-physicians`}>
            {physicians.map((physician) => (
              <option key={physician.id} value={physician.name} />
            ))}
          </datalist>
          <Button
            variant="secondary"
            className={cn(
              'h-9',
              fields.referring_physician_name.trim() && !matchedPhysician ? '' : 'invisible',
            )}
            disabled={createPhysician.isPending}
            onClick={() => createPhysician.mutate(fields.referring_physician_name.trim())}
          >
            Add physician
          </Button>
        </div>

        <label className="flex flex-col gap-1.5 text-[13px] font-medium text-fg">
          Clinical history
          <textarea
            rows={3}
            value={fields.clinical_history}
            onChange={(event) => set('clinical_history')(event.target.value)}
            className={cn(inputClassName, 'h-auto py-2')}
          />
        </label>

        <DocumentsField files={files} onChange={setFiles} progress={progress} disabled={pending} />
      </form>
    </Dialog>
  );
}
