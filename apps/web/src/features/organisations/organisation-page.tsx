import { useQuery } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { cn } from '../../components/ui/cn.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { organisationApi, organisationKeys } from './organisation-api.ts';
import { OutboxPanel } from './outbox-panel.tsx';
import { ReportLayoutSection } from './report-layout-section.tsx';

type TSection = 'layout' | 'outbox';

const SECTIONS: readonly { id: TSection; label: string }[] = [
  { id: 'layout', label: 'Report layout' },
  { id: 'outbox', label: 'Outbox' },
];

/**
 * /organisation (administrators and facility administrators): the report layout — letterheads and
 * the organisation's report style — and, for administrators, the outbox of e-mail and WhatsApp
 * messages. A facility administrator sees only their facility's letterhead.
 */
export function OrganisationPage() {
  const user = useAuth((state) => state.user);
  const organisationId = user?.organisation_fk ?? '';
  const admin = user?.role === 'ADMIN';
  const [section, setSection] = useState<TSection>('layout');
  const details = useQuery({
    queryKey: organisationKeys.details(organisationId),
    queryFn: ({ signal }) => organisationApi.details(organisationId, signal),
    enabled: organisationId !== '',
  });

  // The heading stays the screen's name (as on every screen); the organisation's name leads the line
  // under it once loaded.
  const purpose = admin ? 'Report layout, letterheads and outgoing messages' : "Your facility's letterhead";
  const name = details.data?.name;
  return (
    <Page title="Organisation" description={name ? `${name} — ${purpose}` : purpose}>
      {admin ? (
        <nav aria-label="Organisation sections" className="flex gap-1 border-b border-line">
          {SECTIONS.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              aria-current={section === id ? 'page' : undefined}
              onClick={() => setSection(id)}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-[13px] font-medium',
                section === id ? 'border-accent text-fg' : 'border-transparent text-fg-muted hover:text-fg',
              )}
            >
              {label}
            </button>
          ))}
        </nav>
      ) : null}
      {section === 'outbox' && admin ? (
        <OutboxPanel />
      ) : details.isPending ? (
        <p className="flex items-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> Loading the organisation…
        </p>
      ) : details.isError ? (
        <EmptyState icon={Building2} title={errorMessage(details.error, 'Failed to load the organisation')} />
      ) : (
        <ReportLayoutSection organisation={details.data} canEditStyle={admin} />
      )}
    </Page>
  );
}
