import type { TManagedUser } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { SAVE_USER_FAILED, userKeys, usersApi } from './users-api.ts';

/** The POST /user body that sets only a user's status. */
export function statusFormData(
  user: TManagedUser,
  byUserId: string,
  status: TManagedUser['status'],
): FormData {
  const form = new FormData();
  form.append('id', user.id);
  form.append('by_user_id', byUserId);
  form.append('status', status);
  return form;
}

/** 'Disable …?' or 'Enable …?', Cancel first; the status changes only after the confirmation. */
export function UserStatusDialog({
  user,
  callerId,
  onClose,
}: {
  user: TManagedUser;
  callerId: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const disabling = user.status === 'ACTIVE';
  const change = useMutation({
    mutationFn: () => usersApi.save(statusFormData(user, callerId, disabling ? 'INACTIVE' : 'ACTIVE')),
    onSuccess: async (response) => {
      notify('success', `${response.user.display_name} was ${disabling ? 'disabled' : 'enabled'}`);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorMessage(error, SAVE_USER_FAILED)),
  });
  const pending = change.isPending;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={`${disabling ? 'Disable' : 'Enable'} ${user.display_name}?`}
      description={user.email}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            variant={disabling ? 'danger' : 'primary'}
            onClick={() => change.mutate()}
            disabled={pending}
          >
            {pending ? <Spinner /> : null}
            {disabling ? 'Disable' : 'Enable'}
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">
        {disabling
          ? 'They are signed out at once on every device and cannot sign in again until enabled. Their studies and reports stay as they are.'
          : 'They can sign in again with their password (or a reset link, if they have none).'}
      </p>
    </Dialog>
  );
}
