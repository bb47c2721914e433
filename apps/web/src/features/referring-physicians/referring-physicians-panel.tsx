import type { TReferringPhysician, TReferringPhysicianSignIn } from '@ris/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { ListTable, SearchField, TD_CLASS, TH_CLASS, useDebouncedValue } from '../templates/list-parts.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { ReferringPhysicianDialog } from './referring-physician-dialog.tsx';
import {
  FETCH_PHYSICIANS_FAILED,
  INVITE_PHYSICIAN_FAILED,
  PHYSICIANS_PAGE_SIZE,
  physicianKeys,
  referringPhysiciansApi,
  type TPhysicianStatusFilter,
} from './referring-physicians-api.ts';

const SIGN_IN_LABELS: Record<TReferringPhysicianSignIn, [string, string]> = {
  NOT_INVITED: ['Not invited', 'border-line-strong text-fg-muted'],
  INVITED: ['Invited', 'border-amber-500/40 bg-amber-500/10 text-amber-600 dark:text-amber-300'],
  ACTIVE: ['Can sign in', 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300'],
  DISABLED: ['Account disabled', 'border-danger/50 bg-danger-soft text-danger'],
};

function Badge({ text, tone }: { text: string; tone: string }) {
  return (
    <span
      className={cn(
        'inline-flex rounded border px-1.5 py-px text-[11px] font-medium whitespace-nowrap',
        tone,
      )}
    >
      {text}
    </span>
  );
}

function InviteDialog({ physician, onClose }: { physician: TReferringPhysician; onClose: () => void }) {
  const queryClient = useQueryClient();
  const invite = useMutation({
    mutationFn: () => referringPhysiciansApi.invite(physician.id),
    onSuccess: async (result) => {
      notify('success', `Invitation sent to ${result.physician.email ?? physician.name}`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: physicianKeys.all });
    },
  });
  const again = physician.sign_in === 'INVITED';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !invite.isPending && onClose()}
      title={again ? 'Resend the invitation?' : 'Invite to sign in?'}
      description={`${physician.name} will get an e-mail at ${physician.email ?? ''} with a one-time link to choose a password.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button onClick={() => invite.mutate()} disabled={invite.isPending}>
            {invite.isPending ? <Spinner /> : null}
            {again ? 'Resend invitation' : 'Send invitation'}
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">
        Once signed in they see the studies they referred, and each report once it is final.
        {again ? ' The link sent earlier stops working.' : ''}
      </p>
      {invite.isError ? (
        <p role="alert" className="mt-3 text-[13px] text-danger">
          {errorMessage(invite.error, INVITE_PHYSICIAN_FAILED)}
        </p>
      ) : null}
    </Dialog>
  );
}

type TOpen = { kind: 'create' } | { kind: 'edit' | 'invite'; physician: TReferringPhysician } | null;

/**
 * The organisation's referring physicians (/organisation, Referring physicians): search, facility and
 * status filters, pages of 10, create and edit (POST /user/referring-physician), and the invitation
 * to sign in where the server says it is allowed (abilities.invite).
 */
export function ReferringPhysiciansPanel() {
  const queryClient = useQueryClient();
  const facilities = useAuth((state) => state.facilities);
  const isAdmin = useAuth((state) => state.user?.role === 'ADMIN');
  const mayCreate = useAuth((state) => state.capabilities.create_order);
  const [search, setSearch] = useState('');
  const [facilityId, setFacilityId] = useState('');
  const [status, setStatus] = useState<TPhysicianStatusFilter>('ALL');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<TOpen>(null);
  const debouncedSearch = useDebouncedValue(search);
  const filters = {
    search: debouncedSearch,
    facilityIds: facilityId ? [facilityId] : [],
    status,
    offset,
    limit: PHYSICIANS_PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: physicianKeys.list(filters),
    queryFn: ({ signal }) => referringPhysiciansApi.list(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const facilityName = new Map(facilities.map((facility) => [facility.id, facility.name]));
  const items = list.data?.items ?? [];
  const filtered = debouncedSearch.trim() !== '' || facilityId !== '' || status !== 'ALL';
  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_PHYSICIANS_FAILED)
    : filtered
      ? 'No referring physicians match these filters.'
      : 'No referring physicians yet. Add the doctors who send patients to your facilities.';

  const restart =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setOffset(0);
    };

  return (
    <section aria-label="Referring physicians" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <SearchField
          value={search}
          onChange={restart(setSearch)}
          label="Search referring physicians"
          placeholder="Search name, e-mail or phone"
        />
        <Select
          aria-label="Facility"
          value={facilityId}
          onChange={(e) => restart(setFacilityId)(e.target.value)}
        >
          <option value="">All facilities</option>
          {facilities.map((facility) => (
            <option key={facility.id} value={facility.id}>
              {facility.name}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Status"
          value={status}
          onChange={(e) => restart(setStatus)(e.target.value as TPhysicianStatusFilter)}
        >
          <option value="ALL">Any status</option>
          <option value="ACTIVE">Active</option>
          <option value="INACTIVE">Inactive</option>
        </Select>
        {mayCreate ? (
          <Button className="ml-auto" onClick={() => setOpen({ kind: 'create' })}>
            <Plus aria-hidden="true" className="size-4" />
            New referring physician
          </Button>
        ) : null}
      </div>
      <ListTable
        caption="Referring physicians"
        busy={list.isFetching}
        isEmpty={items.length === 0}
        emptyText={emptyText}
        head={
          <>
            <th scope="col" className={TH_CLASS}>
              Name
            </th>
            <th scope="col" className={TH_CLASS}>
              Contact
            </th>
            <th scope="col" className={TH_CLASS}>
              Facilities
            </th>
            <th scope="col" className={TH_CLASS}>
              Status
            </th>
            <th scope="col" className={TH_CLASS}>
              Sign-in
            </th>
            <th scope="col" className={TH_CLASS}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {items.map((physician) => {
          const [signInText, signInTone] = SIGN_IN_LABELS[physician.sign_in];
          return (
            <tr key={physician.id} className="border-b border-line last:border-b-0 hover:bg-surface-hover/60">
              <td className={TD_CLASS}>
                <div className="font-medium">{physician.name}</div>
                {physician.registration_number ? (
                  <div className="text-xs text-fg-muted">Reg. {physician.registration_number}</div>
                ) : null}
              </td>
              <td className={cn(TD_CLASS, 'text-fg-muted')}>
                <div>{physician.email ?? '—'}</div>
                {physician.phone ? <div className="text-xs">{physician.phone}</div> : null}
              </td>
              <td className={cn(TD_CLASS, 'max-w-64 text-fg-muted')}>
                {physician.facility_fks.length === 0
                  ? 'All facilities'
                  : physician.facility_fks.map((id) => facilityName.get(id) ?? 'Another facility').join(', ')}
              </td>
              <td className={TD_CLASS}>
                {physician.status === 'ACTIVE' ? (
                  <Badge text="Active" tone="border-line-strong text-fg" />
                ) : (
                  <Badge text="Inactive" tone="border-line-strong text-fg-muted" />
                )}
              </td>
              <td className={TD_CLASS}>
                <Badge text={signInText} tone={signInTone} />
              </td>
              <td className={cn(TD_CLASS, 'text-right whitespace-nowrap')}>
                {physician.abilities.invite ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setOpen({ kind: 'invite', physician })}
                    aria-label={`${physician.sign_in === 'INVITED' ? 'Resend invitation to' : 'Invite to sign in'} ${physician.name}`}
                  >
                    {physician.sign_in === 'INVITED' ? 'Resend invitation' : 'Invite to sign in'}
                  </Button>
                ) : null}
                {physician.abilities.edit ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setOpen({ kind: 'edit', physician })}
                    aria-label={`Edit ${physician.name}`}
                  >
                    Edit
                  </Button>
                ) : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
      {list.data ? (
        <PaginationBar
          label="Referring physicians"
          page={list.data}
          pageSize={PHYSICIANS_PAGE_SIZE}
          onOffset={setOffset}
        />
      ) : null}
      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <ReferringPhysicianDialog
          physician={open.kind === 'edit' ? open.physician : null}
          facilities={facilities}
          mayBeOrganisationWide={isAdmin}
          onClose={() => setOpen(null)}
          onSaved={(saved, created) => {
            notify('success', created ? `${saved.name} added` : `${saved.name} saved`);
            setOpen(null);
            void queryClient.invalidateQueries({ queryKey: physicianKeys.all });
          }}
        />
      ) : null}
      {open?.kind === 'invite' ? (
        <InviteDialog physician={open.physician} onClose={() => setOpen(null)} />
      ) : null}
    </section>
  );
}
