import type { TMergePatientResult, TPatient } from '@ris/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SearchField, useDebouncedValue } from '../templates/list-parts.tsx';
import { FETCH_PATIENTS_FAILED, MERGE_PATIENTS_FAILED, patientKeys, patientsApi } from './patients-api.ts';

const CANDIDATES = 8;

function RecordCard({ title, patient }: { title: string; patient: TPatient }) {
  return (
    <div className="flex-1 rounded-md border border-line bg-canvas/40 p-3 text-[13px]">
      <p className="mb-1 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{title}</p>
      <p className="font-semibold text-fg">{patient.name}</p>
      <dl className="mt-1 grid grid-cols-[5.5rem_1fr] gap-y-0.5 text-fg-muted">
        <dt>Patient ID</dt>
        <dd className="font-mono text-xs text-fg">{patient.patient_id}</dd>
        <dt>Sex</dt>
        <dd>{patient.sex ?? '—'}</dd>
        <dt>Birth date</dt>
        <dd>{patient.birth_date ?? '—'}</dd>
        <dt>Phone</dt>
        <dd>{patient.phone ?? '—'}</dd>
        <dt>E-mail</dt>
        <dd className="truncate">{patient.email ?? '—'}</dd>
      </dl>
    </div>
  );
}

/** Records of the same facility that may be the same person (the kept record itself left out). */
function DuplicatePicker({ kept, onPick }: { kept: TPatient; onPick: (patient: TPatient) => void }) {
  const [search, setSearch] = useState(kept.name);
  const term = useDebouncedValue(search);
  const filters = { search: term, facilityIds: [kept.facility_fk], offset: 0, limit: CANDIDATES + 1 };
  const candidates = useQuery({
    queryKey: patientKeys.list(filters),
    queryFn: ({ signal }) => patientsApi.list(filters, signal),
    retry: false,
  });
  const others = (candidates.data?.items ?? []).filter((p) => p.id !== kept.id).slice(0, CANDIDATES);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-[13px] text-fg-muted">
        Find the duplicate record of {kept.name} at the same facility. Its studies will move to this record.
      </p>
      <SearchField
        value={search}
        onChange={setSearch}
        label="Search the duplicate"
        placeholder="Name or patient id"
      />
      {candidates.isPending ? (
        <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> Searching…
        </p>
      ) : candidates.isError ? (
        <p role="alert" className="text-[13px] text-danger">
          {errorMessage(candidates.error, FETCH_PATIENTS_FAILED)}
        </p>
      ) : others.length === 0 ? (
        <p className="text-[13px] text-fg-muted">No other record of this facility matches.</p>
      ) : (
        <ul aria-label="Possible duplicates" className="divide-y divide-line rounded-md border border-line">
          {others.map((patient) => (
            <li key={patient.id} className="flex items-center justify-between gap-3 px-3 py-2 text-[13px]">
              <span>
                <span className="font-medium text-fg">{patient.name}</span>{' '}
                <span className="font-mono text-xs text-fg-muted">{patient.patient_id}</span>
                {patient.birth_date ? (
                  <span className="ml-2 text-fg-muted">born {patient.birth_date}</span>
                ) : null}
              </span>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onPick(patient)}
                aria-label={`Choose ${patient.name} ${patient.patient_id}`}
              >
                Choose
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Merge a duplicate record into `kept` (administrators): pick the duplicate, confirm with both
 * records side by side, then see what moved (POST /user/patient/{id}/merge).
 */
export function PatientMergeDialog({
  kept,
  onClose,
  onMerged,
}: {
  kept: TPatient;
  onClose: () => void;
  onMerged: (result: TMergePatientResult) => void;
}) {
  const [duplicate, setDuplicate] = useState<TPatient | null>(null);
  const merge = useMutation({
    mutationFn: (duplicateId: string) => patientsApi.merge(kept.id, duplicateId),
    onSuccess: onMerged,
  });
  const result = merge.data;
  const step = result ? 'done' : duplicate ? 'confirm' : 'pick';
  const footer =
    step === 'done' ? (
      <Button onClick={onClose}>Close</Button>
    ) : step === 'confirm' && duplicate ? (
      <>
        <Button variant="secondary" onClick={() => setDuplicate(null)} disabled={merge.isPending}>
          Back
        </Button>
        <Button variant="danger" onClick={() => merge.mutate(duplicate.id)} disabled={merge.isPending}>
          {merge.isPending ? <Spinner /> : null}
          Merge records
        </Button>
      </>
    ) : (
      <Button variant="secondary" onClick={onClose}>
        Cancel
      </Button>
    );
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !merge.isPending && onClose()}
      title={step === 'done' ? 'Records merged' : `Merge a duplicate into ${kept.name}`}
      className="w-[min(94vw,40rem)]"
      footer={footer}
    >
      {step === 'pick' ? <DuplicatePicker kept={kept} onPick={setDuplicate} /> : null}
      {step === 'confirm' && duplicate ? (
        <div className="flex flex-col gap-3">
          <div className={cn('flex gap-3')}>
            <RecordCard title="Keep" patient={kept} />
            <RecordCard title="Merge into it" patient={duplicate} />
          </div>
          <p className="text-[13px] text-fg-muted">
            The studies of {duplicate.name} ({duplicate.patient_id}) move to {kept.name} ({kept.patient_id})
            and show its details. Empty fields of the kept record take the duplicate’s values. The duplicate
            is not deleted: it stays on file marked as merged, and the merge is in the audit log.
          </p>
          {merge.isError ? (
            <p role="alert" className="text-[13px] text-danger">
              {errorMessage(merge.error, MERGE_PATIENTS_FAILED)}
            </p>
          ) : null}
        </div>
      ) : null}
      {step === 'done' && result ? (
        <div role="status" className="flex flex-col gap-3 text-[13px] text-fg">
          <p>
            {result.moved_study_ids.length === 1
              ? '1 study moved'
              : `${result.moved_study_ids.length} studies moved`}{' '}
            from {result.merged.name} ({result.merged.patient_id}) to {result.patient.name} (
            {result.patient.patient_id}).
          </p>
          <RecordCard title="Record kept" patient={result.patient} />
        </div>
      ) : null}
    </Dialog>
  );
}
