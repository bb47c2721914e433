import { useMutation } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { authApi, authSession } from '../auth/session.ts';

/**
 * Ends every session of the account (POST /auth/sign-out-all): every device, this one included,
 * must sign in again. Confirmed first; this tab then signs out like a normal sign-out.
 */
export function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const signOutAll = useMutation({
    mutationFn: () => authApi.signOutAll(),
    onSuccess: async () => {
      await authSession.logout();
      notify('success', 'You have been signed out on every device.');
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to sign out of every device')),
  });
  const pending = signOutAll.isPending;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="max-w-xl text-[13px] text-fg-muted">
        Lost a phone, or signed in on a shared computer? End every session of your account at once, this one
        included.
      </p>
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        <LogOut aria-hidden="true" className="size-4" />
        Sign out of all devices
      </Button>
      <Dialog
        open={confirming}
        onOpenChange={(open) => !pending && setConfirming(open)}
        title="Sign out of all devices?"
        description="Every browser and device signed in to your account, this one included."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={pending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => signOutAll.mutate()} disabled={pending}>
              {pending ? <Spinner /> : null}
              Sign out everywhere
            </Button>
          </>
        }
      >
        <p className="text-[13px] text-fg-muted">
          Open reports keep what was saved. You will need your password to sign in again.
        </p>
      </Dialog>
    </div>
  );
}
