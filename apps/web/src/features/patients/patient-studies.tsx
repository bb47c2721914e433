import type { TPatient } from '@ris/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { worklistItemPath } from '../../paths.ts';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { StatusText } from '../worklist/worklist-cells.tsx';
import {
  FETCH_PATIENT_STUDIES_FAILED,
  PATIENT_STUDIES_PAGE_SIZE,
  patientKeys,
  patientsApi,
} from './patients-api.ts';

const when = (iso: string | null, fallback: string) => formatShortDateTime(new Date(iso ?? fallback));

/** The studies of one patient record the caller may see (GET /user/patient/{id}/studies). */
export function PatientStudies({ patient }: { patient: TPatient }) {
  const [offset, setOffset] = useState(0);
  const studies = useQuery({
    queryKey: patientKeys.studies(patient.id, offset),
    queryFn: ({ signal }) => patientsApi.studies(patient.id, offset, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (studies.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading the studies of {patient.name}…
      </p>
    );
  }
  if (studies.isError) {
    return (
      <p role="alert" className="text-[13px] text-danger">
        {errorMessage(studies.error, FETCH_PATIENT_STUDIES_FAILED)}
      </p>
    );
  }
  const page = studies.data;
  if (page.total === 0) {
    return <p className="text-[13px] text-fg-muted">No studies of {patient.name} that you can see.</p>;
  }
  return (
    <div className="flex flex-col gap-2">
      <table className="w-full text-[13px]" aria-label={`Studies of ${patient.name}`}>
        <thead className="text-left text-xs text-fg-muted">
          <tr>
            <th className="py-1 pr-3 font-medium">Date</th>
            <th className="py-1 pr-3 font-medium">Modality</th>
            <th className="py-1 pr-3 font-medium">Study</th>
            <th className="py-1 pr-3 font-medium">Accession</th>
            <th className="py-1 pr-3 font-medium">Facility</th>
            <th className="py-1 pr-3 font-medium">Status</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((study) => (
            <tr key={study.id} className="border-t border-line/60">
              <td className="py-1.5 pr-3 whitespace-nowrap tabular-nums">
                {when(study.datetime, study.created_at)}
              </td>
              <td className="py-1.5 pr-3">{study.modality ?? '—'}</td>
              <td className="py-1.5 pr-3">
                <Link to={worklistItemPath(study.id)} className="text-accent hover:underline">
                  {study.study ?? 'Study'}
                </Link>
              </td>
              <td className="py-1.5 pr-3 font-mono text-xs">{study.accession_number}</td>
              <td className="py-1.5 pr-3 text-fg-muted">{study.facility}</td>
              <td className="py-1.5 pr-3">
                <StatusText status={study.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.total > PATIENT_STUDIES_PAGE_SIZE ? (
        <PaginationBar
          label={`Studies of ${patient.name}`}
          page={page}
          pageSize={PATIENT_STUDIES_PAGE_SIZE}
          onOffset={setOffset}
        />
      ) : null}
    </div>
  );
}
