import { CircleUserRound } from 'lucide-react';
import { label } from '@ris/domain';
import { Page } from '../../components/layout/page.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { useAuth } from '../../stores/auth-store.ts';

function Detail({ term, value }: { term: string; value: string }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-4 px-4 py-2.5">
      <dt className="text-fg-muted">{term}</dt>
      <dd className="text-fg">{value}</dd>
    </div>
  );
}

/** /profile: the signed-in account as the server returned it; editing preferences comes later. */
export function ProfilePage() {
  const user = useAuth((state) => state.user);
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  return (
    <Page title="Profile" description="The account you are signed in with.">
      {user ? (
        <dl className="divide-y divide-line rounded-lg border border-line bg-surface text-[13px]">
          {name ? <Detail term="Name" value={name} /> : null}
          {user.display_name ? <Detail term="Display name" value={user.display_name} /> : null}
          <Detail term="Email" value={user.email} />
          <Detail term="Role" value={user.role ? label(user.role) : 'No role assigned'} />
        </dl>
      ) : null}
      <EmptyState icon={CircleUserRound} title="Profile settings are not available yet.">
        Preferences, signature and password changes will be added by a later release.
      </EmptyState>
    </Page>
  );
}
