import { Building2, House } from 'lucide-react';
import { label } from '@ris/domain';
import { Page } from '../../components/layout/page.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { useAuth } from '../../stores/auth-store.ts';

/** / : the landing screen after sign-in: who is signed in and where they work. */
export function HomePage() {
  const user = useAuth((state) => state.user);
  const facilities = useAuth((state) => state.facilities);
  const name = user?.display_name || [user?.first_name, user?.last_name].filter(Boolean).join(' ');

  return (
    <Page title="Home" description={name ? `Welcome, ${name}.` : undefined}>
      <section aria-labelledby="home-facilities" className="rounded-lg border border-line bg-surface p-5">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="home-facilities" className="text-sm font-semibold text-fg">
            Your facilities
          </h2>
          {user?.role ? <span className="text-xs text-fg-subtle">{label(user.role)}</span> : null}
        </div>
        {facilities.length > 0 ? (
          <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {facilities.map((facility) => (
              <li
                key={facility.id}
                className="flex items-center gap-2.5 rounded-md border border-line bg-surface-raised px-3 py-2"
              >
                <Building2 aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
                <span className="min-w-0">
                  <span className="block truncate text-[13px] font-medium text-fg">{facility.name}</span>
                  <span className="block text-[11px] text-fg-subtle">{facility.code}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-[13px] text-fg-muted">No centers found.</p>
        )}
      </section>
      <EmptyState icon={House} title="The home dashboard is not available yet.">
        This screen will be filled in by a later release.
      </EmptyState>
    </Page>
  );
}
