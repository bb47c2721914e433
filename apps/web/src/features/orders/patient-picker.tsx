import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ordersApi, type TPatientOption } from './orders-api.ts';

export interface PatientPickerProps {
  facilityIds: string[];
  onPick: (patient: TPatientOption) => void;
}

/** Search the patient records of the user's facilities (GET /user/patients) and pick one. */
export function PatientPicker({ facilityIds, onPick }: PatientPickerProps) {
  const [search, setSearch] = useState('');
  const term = search.trim();
  const patients = useQuery({
    queryKey: ['patients', term, facilityIds],
    queryFn: ({ signal }) => ordersApi.patients(term, facilityIds, signal),
    enabled: term.length >= 2,
  });
  const items = patients.data?.items ?? [];
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Search patients"
        type="search"
        placeholder="Name or patient ID (2 letters or more)"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        autoComplete="off"
      />
      {term.length >= 2 ? (
        patients.isPending ? (
          <p className="flex items-center gap-2 text-[13px] text-fg-muted">
            <Spinner /> Searching…
          </p>
        ) : patients.isError ? (
          <p className="text-[13px] text-danger">Could not search the patients.</p>
        ) : items.length === 0 ? (
          <p className="text-[13px] text-fg-muted">No patient matches. Add a new patient instead.</p>
        ) : (
          <ul aria-label="Matching patients" className="flex max-h-44 flex-col gap-1 overflow-y-auto">
            {items.map((patient) => (
              <li key={patient.id}>
                <button
                  type="button"
                  onClick={() => onPick(patient)}
                  className="flex w-full items-center justify-between gap-2 rounded-md border border-line px-3 py-1.5 text-left text-[13px] hover:border-accent hover:bg-surface-hover"
                >
                  <span className="font-medium text-fg">{patient.name}</span>
                  <span className="font-mono text-[12px] text-fg-muted">
                    {patient.patient_id}
                    {patient.sex ? ` · ${patient.sex}` : ''}
                    {patient.birth_date ? ` · ${patient.birth_date}` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
