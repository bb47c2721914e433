import { useQuery } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TRole } from '@ris/domain';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { cn } from '../../components/ui/cn.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, type TabItem } from '../../components/ui/tabs.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { organisationApi, organisationKeys } from './organisation-api.ts';
import { OutboxPanel } from './outbox-panel.tsx';
import { ReportLayoutSection } from './report-layout-section.tsx';
import { TurnaroundTargetsPanel } from './turnaround-targets-panel.tsx';
import { SpeechSettingsPanel } from '../dictation/settings/speech-settings-panel.tsx';

// The people tabs load with their first opening: the organisation's own settings stay light.
const UsersPanel = lazy(() => import('../users/users-panel.tsx').then((m) => ({ default: m.UsersPanel })));
const ReferringPhysiciansPanel = lazy(() =>
  import('../referring-physicians/referring-physicians-panel.tsx').then((m) => ({
    default: m.ReferringPhysiciansPanel,
  })),
);
const PatientsPanel = lazy(() =>
  import('../patients/patients-panel.tsx').then((m) => ({ default: m.PatientsPanel })),
);
const ArchivesPanel = lazy(() =>
  import('../pacs/archives-panel.tsx').then((m) => ({ default: m.ArchivesPanel })),
);

type TSection = 'layout' | 'turnaround' | 'dictation' | 'outbox';

const SECTIONS: readonly { id: TSection; label: string; adminOnly: boolean }[] = [
  { id: 'layout', label: 'Report layout', adminOnly: false },
  { id: 'turnaround', label: 'Turnaround targets', adminOnly: false },
  { id: 'dictation', label: 'Dictation', adminOnly: false },
  { id: 'outbox', label: 'Outbox', adminOnly: true },
];

export type TOrganisationTab = 'organisation' | 'users' | 'referring-physicians' | 'patients' | 'archives';

/** The query parameter that keeps the open tab in the address (a reload or a shared link keeps it). */
export const ORGANISATION_TAB_PARAM = 'tab';

const TAB_LABELS: Record<TOrganisationTab, string> = {
  organisation: 'Organisation',
  users: 'Users',
  'referring-physicians': 'Referring physicians',
  patients: 'Patients',
  archives: 'Archives',
};

/**
 * The tabs a caller of `role` gets. An admin: all of them, for the whole organisation. A facility
 * admin: their facility's letterhead, their facility's users, referring physicians and patients (the
 * server scopes every list and says on each record what they may do). Nobody else opens the screen.
 * Archives: for whom the server's capabilities allow it (manage_archives: the organisation's admins).
 */
export function organisationTabs(
  role: TRole | null | undefined,
  manageArchives = false,
): readonly TOrganisationTab[] {
  if (role === 'ADMIN' || role === 'FACILITY_ADMIN') {
    const tabs: TOrganisationTab[] = ['organisation', 'users', 'referring-physicians', 'patients'];
    return manageArchives ? [...tabs, 'archives'] : tabs;
  }
  return [];
}

function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
      <Spinner /> Loading {what}…
    </p>
  );
}

/**
 * The Organisation tab: report layout (letterheads, style, time zones), turnaround targets (admins
 * edit, facility admins read) and, for admins, the outbox.
 */
function OrganisationSettings({ admin, organisationId }: { admin: boolean; organisationId: string }) {
  const [section, setSection] = useState<TSection>('layout');
  const details = useQuery({
    queryKey: organisationKeys.details(organisationId),
    queryFn: ({ signal }) => organisationApi.details(organisationId, signal),
    enabled: organisationId !== '',
  });
  return (
    <>
      <nav aria-label="Organisation sections" className="flex gap-1">
        {SECTIONS.filter((item) => admin || !item.adminOnly).map(({ id, label }) => (
          <button
            key={id}
            type="button"
            aria-current={section === id ? 'page' : undefined}
            onClick={() => setSection(id)}
            className={cn(
              'h-7 rounded px-3 text-[13px] font-medium transition-colors',
              section === id ? 'bg-accent-soft text-fg' : 'text-fg-muted hover:text-fg',
            )}
          >
            {label}
          </button>
        ))}
      </nav>
      {section === 'outbox' && admin ? (
        <OutboxPanel />
      ) : section === 'turnaround' ? (
        <TurnaroundTargetsPanel canEdit={admin} />
      ) : section === 'dictation' ? (
        <SpeechSettingsPanel canEdit={admin} />
      ) : details.isPending ? (
        <Loading what="the organisation" />
      ) : details.isError ? (
        <EmptyState icon={Building2} title={errorMessage(details.error, 'Failed to load the organisation')} />
      ) : (
        <ReportLayoutSection organisation={details.data} canEditStyle={admin} />
      )}
    </>
  );
}

/**
 * /organisation (administrators and facility administrators), in tabs: the organisation's settings
 * (report layout, letterheads, time zones, outbox), its users, referring physicians and patients. The
 * open tab is `?tab=` in the address.
 */
export function OrganisationPage() {
  const user = useAuth((state) => state.user);
  const organisationId = user?.organisation_fk ?? '';
  const admin = user?.role === 'ADMIN';
  const manageArchives = useAuth((state) => state.capabilities.manage_archives);
  const [params, setParams] = useSearchParams();
  const details = useQuery({
    queryKey: organisationKeys.details(organisationId),
    queryFn: ({ signal }) => organisationApi.details(organisationId, signal),
    enabled: organisationId !== '',
  });
  const tabs = organisationTabs(user?.role, manageArchives);
  const asked = params.get(ORGANISATION_TAB_PARAM) as TOrganisationTab | null;
  const tab: TOrganisationTab = asked && tabs.includes(asked) ? asked : 'organisation';
  const items: TabItem<TOrganisationTab>[] = tabs.map((id) => ({ id, label: TAB_LABELS[id] }));
  const select = (next: TOrganisationTab) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'organisation') updated.delete(ORGANISATION_TAB_PARAM);
        else updated.set(ORGANISATION_TAB_PARAM, next);
        return updated;
      },
      { replace: true },
    );

  // The heading stays the screen's name (as on every screen); the organisation's name leads the line
  // under it once loaded.
  const purpose = admin
    ? 'Settings, people and outgoing messages of the organisation'
    : 'Your facility’s letterhead and people';
  const name = details.data?.name;
  return (
    <Page title="Organisation" description={name ? `${name} — ${purpose}` : purpose}>
      <Tabs label="Organisation" items={items} value={tab} onChange={select}>
        {tab === 'organisation' ? (
          <OrganisationSettings admin={admin} organisationId={organisationId} />
        ) : (
          <Suspense fallback={<Loading what={TAB_LABELS[tab].toLowerCase()} />}>
            {tab === 'users' ? (
              <UsersPanel />
            ) : tab === 'referring-physicians' ? (
              <ReferringPhysiciansPanel />
            ) : tab === 'archives' ? (
              <ArchivesPanel />
            ) : (
              <PatientsPanel />
            )}
          </Suspense>
        )}
      </Tabs>
    </Page>
  );
}
