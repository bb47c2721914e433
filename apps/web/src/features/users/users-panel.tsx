import {
  PAGE_SIZES,
  ROLES,
  RECORD_STATUSES,
  label,
  type TManagedUser,
  type TRecordStatus,
  type TRole,
  type TUserList,
} from '@ris/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { MultiSelect } from '../../components/ui/multi-select.tsx';
import { Select } from '../../components/ui/select.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { ListTable, SearchField, TD_CLASS, TH_CLASS, useDebouncedValue } from '../templates/list-parts.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { UserFormDialog } from './user-form-dialog.tsx';
import { UserRowMenu, type TUserRowAction } from './user-row-menu.tsx';
import { UserStatusDialog } from './user-status-dialog.tsx';
import {
  FETCH_USERS_FAILED,
  RESEND_INVITATION_FAILED,
  userKeys,
  usersApi,
  type TUserListParams,
} from './users-api.ts';

const EMPTY_PAGE = (offset: number): TUserList => ({
  items: [],
  total: 0,
  limit: PAGE_SIZES.users,
  offset,
  next_offset: null,
  previous_offset: null,
});

type TOpen = { kind: 'create' } | { kind: 'edit' | 'status' | 'reset-password'; user: TManagedUser } | null;

function StatusBadge({ user }: { user: TManagedUser }) {
  const [text, tone] =
    user.status === 'INACTIVE'
      ? ['Disabled', 'border-danger/50 bg-danger-soft text-danger']
      : user.invitation_pending
        ? ['Invited', 'border-amber-500/40 bg-amber-500/10 text-amber-600 dark:text-amber-300']
        : ['Active', 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300'];
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

const fullName = (user: TManagedUser) => `${user.first_name} ${user.last_name}`.trim();

function roleText(user: TManagedUser): string {
  if (!user.role) return 'No role';
  if (user.role === 'RADIOLOGIST' && user.user_type === 'REPORTER') return 'Radiologist (reporter)';
  return label(user.role);
}

/**
 * The Users tab of /organisation: the people the caller administers (GET /user: an admin everyone of
 * the organisation, a facility admin those of their facility), with search, filters and pages of 10;
 * add, edit, disable or enable, resend the invitation, reset a password — each offered by the
 * abilities the server sent with the user.
 */
export function UsersPanel() {
  const caller = useAuth((state) => state.user);
  const facilities = useAuth((state) => state.facilities);
  const callerId = caller?.id ?? '';
  // The roles the server's users policy lets the caller give (their capabilities).
  const roles = useAuth((state) => state.capabilities.assignable_roles);
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<TRole | ''>('');
  const [status, setStatus] = useState<TRecordStatus | ''>('');
  const [facilityIds, setFacilityIds] = useState<string[]>([]);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<TOpen>(null);
  const debouncedSearch = useDebouncedValue(search);

  const filters = {
    search: debouncedSearch.trim() || undefined,
    role: role || undefined,
    status: status || undefined,
    facility_ids: facilityIds,
  };
  const filterKey = JSON.stringify(filters);
  const [seenKey, setSeenKey] = useState(filterKey);
  if (seenKey !== filterKey) {
    setSeenKey(filterKey);
    setOffset(0);
  }
  const params: TUserListParams = { ...filters, offset };
  const list = useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => usersApi.list(params, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const page = list.data ?? EMPTY_PAGE(offset);

  const resend = useMutation({
    mutationFn: (user: TManagedUser) => usersApi.resendInvitation(user.id),
    onSuccess: (_result, user) => notify('success', `The invitation was sent again to ${user.email}`),
    onError: (error) => notify('error', errorMessage(error, RESEND_INVITATION_FAILED)),
  });

  const onAction = (action: TUserRowAction, user: TManagedUser) => {
    if (action === 'resend-invitation') resend.mutate(user);
    else setOpen({ kind: action, user });
  };

  const facilityName = new Map(facilities.map((facility) => [facility.id, facility.name]));
  const facilitiesText = (user: TManagedUser): string => {
    if (user.role === 'ADMIN') return 'All facilities';
    const names = user.facility_fks
      .map((id) => facilityName.get(id))
      .filter((name): name is string => name !== undefined)
      .sort((a, b) => a.localeCompare(b));
    const others = user.facility_fks.length - names.length;
    const more = others === 1 ? '1 other' : `${others} others`;
    return [...names, ...(others > 0 ? [more] : [])].join(', ') || '—';
  };

  const filtered = Boolean(filters.search || role || status || facilityIds.length > 0);
  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_USERS_FAILED)
    : filtered
      ? 'No users match the filters.'
      : 'No users yet. Add the first one.';

  return (
    <section aria-label="Users" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchField
          value={search}
          onChange={setSearch}
          label="Search users"
          placeholder="Search name or e-mail"
        />
        <Select
          aria-label="Role"
          value={role}
          onChange={(event) => setRole(event.target.value as TRole | '')}
        >
          <option value="">All roles</option>
          {ROLES.map((value) => (
            <option key={value} value={value}>
              {label(value)}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Status"
          value={status}
          onChange={(event) => setStatus(event.target.value as TRecordStatus | '')}
        >
          <option value="">Any status</option>
          {RECORD_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value === 'ACTIVE' ? 'Active' : 'Disabled'}
            </option>
          ))}
        </Select>
        {facilities.length > 1 ? (
          <MultiSelect
            label="Facility"
            options={facilities.map((facility) => ({ value: facility.id, label: facility.name }))}
            selected={facilityIds}
            onChange={setFacilityIds}
          />
        ) : null}
        {roles.length > 0 ? (
          <Button className="ml-auto" onClick={() => setOpen({ kind: 'create' })}>
            <UserPlus aria-hidden="true" className="size-4" />
            Add user
          </Button>
        ) : null}
      </div>

      <ListTable
        caption="Users"
        busy={list.isFetching}
        isEmpty={page.items.length === 0}
        emptyText={<span role={list.isError ? 'alert' : undefined}>{emptyText}</span>}
        head={
          <>
            {['Name', 'E-mail', 'Role', 'Facilities', 'Status', 'Last sign-in'].map((heading) => (
              <th key={heading} scope="col" className={TH_CLASS}>
                {heading}
              </th>
            ))}
            <th scope="col" className={cn(TH_CLASS, 'w-12')}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {page.items.map((user) => (
          <tr key={user.id} className="border-b border-line last:border-b-0 hover:bg-surface-hover/60">
            <td className={cn(TD_CLASS, 'max-w-64')}>
              {user.abilities.edit ? (
                <button
                  type="button"
                  onClick={() => setOpen({ kind: 'edit', user })}
                  className="block max-w-full truncate text-left font-medium text-fg hover:text-accent hover:underline"
                >
                  {user.display_name}
                </button>
              ) : (
                <span className="block truncate font-medium">{user.display_name}</span>
              )}
              <span className="block truncate text-[11px] text-fg-subtle">
                {[
                  fullName(user) === user.display_name ? null : fullName(user),
                  user.id === callerId ? 'you' : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </td>
            <td className={cn(TD_CLASS, 'max-w-64 truncate text-fg-muted')}>{user.email}</td>
            <td className={cn(TD_CLASS, 'whitespace-nowrap')}>{roleText(user)}</td>
            <td className={cn(TD_CLASS, 'max-w-72 truncate text-fg-muted')} title={facilitiesText(user)}>
              {facilitiesText(user)}
            </td>
            <td className={TD_CLASS}>
              <StatusBadge user={user} />
            </td>
            <td className={cn(TD_CLASS, 'whitespace-nowrap text-fg-muted tabular-nums')}>
              {user.last_sign_in_at ? formatShortDateTime(new Date(user.last_sign_in_at)) : 'Never'}
            </td>
            <td className={cn(TD_CLASS, 'text-right')}>
              <UserRowMenu user={user} onAction={onAction} />
            </td>
          </tr>
        ))}
      </ListTable>
      <PaginationBar page={page} pageSize={PAGE_SIZES.users} onOffset={setOffset} label="Users" />

      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <UserFormDialog
          user={open.kind === 'edit' ? open.user : null}
          roles={roles}
          facilities={facilities}
          callerId={callerId}
          organisationId={caller?.organisation_fk ?? ''}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'status' ? (
        <UserStatusDialog user={open.user} callerId={callerId} onClose={() => setOpen(null)} />
      ) : null}
      {open?.kind === 'reset-password' ? (
        <ResetPasswordDialog user={open.user} onClose={() => setOpen(null)} />
      ) : null}
    </section>
  );
}
