import type { TPatient } from '@ris/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Select } from '../../components/ui/select.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { ListTable, SearchField, TD_CLASS, TH_CLASS, useDebouncedValue } from '../templates/list-parts.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { PatientEditDialog } from './patient-edit-dialog.tsx';
import { PatientMergeDialog } from './patient-merge-dialog.tsx';
import { PatientStudies } from './patient-studies.tsx';
import { FETCH_PATIENTS_FAILED, PATIENTS_PAGE_SIZE, patientKeys, patientsApi } from './patients-api.ts';

const SEX_LABELS: Record<string, string> = { M: 'Male', F: 'Female', O: 'Other' };
const COLUMNS = 7;

type TOpen = { kind: 'edit' | 'merge'; patient: TPatient } | null;

/**
 * Patient records of the caller's facilities (/organisation, Patients): search, facility filter,
 * pages of 10; each row opens the record's studies; edit (PATCH /user/patient/{id}) and merge a
 * duplicate into it (administrators) where the server's abilities allow.
 */
export function PatientsPanel() {
  const queryClient = useQueryClient();
  const facilities = useAuth((state) => state.facilities);
  const [search, setSearch] = useState('');
  const [facilityId, setFacilityId] = useState('');
  const [offset, setOffset] = useState(0);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [open, setOpen] = useState<TOpen>(null);
  const debouncedSearch = useDebouncedValue(search);
  const filters = {
    search: debouncedSearch,
    facilityIds: facilityId ? [facilityId] : [],
    offset,
    limit: PATIENTS_PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: patientKeys.list(filters),
    queryFn: ({ signal }) => patientsApi.list(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const facilityName = new Map(facilities.map((facility) => [facility.id, facility.name]));
  const items = list.data?.items ?? [];
  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_PATIENTS_FAILED)
    : debouncedSearch.trim() !== '' || facilityId !== ''
      ? 'No patients match these filters.'
      : 'No patient records yet. Records are created with orders and studies.';
  const refresh = () => queryClient.invalidateQueries({ queryKey: patientKeys.all });

  return (
    <section aria-label="Patients" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <SearchField
          value={search}
          onChange={(value) => {
            setSearch(value);
            setOffset(0);
          }}
          label="Search patients"
          placeholder="Search name or patient id"
        />
        <Select
          aria-label="Facility"
          value={facilityId}
          onChange={(event) => {
            setFacilityId(event.target.value);
            setOffset(0);
          }}
        >
          <option value="">All facilities</option>
          {facilities.map((facility) => (
            <option key={facility.id} value={facility.id}>
              {facility.name}
            </option>
          ))}
        </Select>
      </div>
      <ListTable
        caption="Patients"
        busy={list.isFetching}
        isEmpty={items.length === 0}
        emptyText={emptyText}
        head={
          <>
            <th scope="col" className={cn(TH_CLASS, 'w-8')}>
              <span className="sr-only">Studies</span>
            </th>
            <th scope="col" className={TH_CLASS}>
              Name
            </th>
            <th scope="col" className={TH_CLASS}>
              Patient ID
            </th>
            <th scope="col" className={TH_CLASS}>
              Sex / born
            </th>
            <th scope="col" className={TH_CLASS}>
              Facility
            </th>
            <th scope="col" className={TH_CLASS}>
              Contact
            </th>
            <th scope="col" className={TH_CLASS}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {items.map((patient) => {
          const isOpen = expanded === patient.id;
          return (
            <Fragment key={patient.id}>
              <tr className="border-b border-line last:border-b-0 hover:bg-surface-hover/60">
                <td className={TD_CLASS}>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-expanded={isOpen}
                    aria-label={`${isOpen ? 'Hide' : 'Show'} studies of ${patient.name}`}
                    onClick={() => setExpanded(isOpen ? null : patient.id)}
                  >
                    {isOpen ? (
                      <ChevronDown aria-hidden="true" className="size-4" />
                    ) : (
                      <ChevronRight aria-hidden="true" className="size-4" />
                    )}
                  </Button>
                </td>
                <td className={cn(TD_CLASS, 'font-medium')}>{patient.name}</td>
                <td className={cn(TD_CLASS, 'font-mono text-xs')}>{patient.patient_id}</td>
                <td className={cn(TD_CLASS, 'text-fg-muted')}>
                  {[patient.sex ? (SEX_LABELS[patient.sex] ?? patient.sex) : null, patient.birth_date]
                    .filter(Boolean)
                    .join(' · ') || '—'}
                </td>
                <td className={cn(TD_CLASS, 'text-fg-muted')}>
                  {facilityName.get(patient.facility_fk) ?? 'Another facility'}
                </td>
                <td className={cn(TD_CLASS, 'text-fg-muted')}>
                  {[patient.phone, patient.email].filter(Boolean).join(' · ') || '—'}
                </td>
                <td className={cn(TD_CLASS, 'text-right whitespace-nowrap')}>
                  {patient.abilities.merge ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setOpen({ kind: 'merge', patient })}
                      aria-label={`Merge a duplicate into ${patient.name}`}
                    >
                      Merge…
                    </Button>
                  ) : null}
                  {patient.abilities.edit ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setOpen({ kind: 'edit', patient })}
                      aria-label={`Edit ${patient.name}`}
                    >
                      Edit
                    </Button>
                  ) : null}
                </td>
              </tr>
              {isOpen ? (
                <tr className="border-b border-line bg-canvas/40">
                  <td colSpan={COLUMNS} className="px-10 py-3">
                    <PatientStudies patient={patient} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </ListTable>
      {list.data ? (
        <PaginationBar label="Patients" page={list.data} pageSize={PATIENTS_PAGE_SIZE} onOffset={setOffset} />
      ) : null}
      {open?.kind === 'edit' ? (
        <PatientEditDialog
          patient={open.patient}
          onClose={() => setOpen(null)}
          onSaved={(saved) => {
            notify('success', `${saved.name} saved`);
            setOpen(null);
            void refresh();
          }}
        />
      ) : null}
      {open?.kind === 'merge' ? (
        <PatientMergeDialog
          kept={open.patient}
          onClose={() => setOpen(null)}
          onMerged={() => void refresh()}
        />
      ) : null}
    </section>
  );
}
