import type { TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { worklistKeys } from '../../api/worklist-keys.ts';
import { dicomApi } from './dicom-api.ts';

export interface ArchiveDeleteDialogProps {
  item: TWorklistItem;
  onClose: () => void;
}

/**
 * Asks before a study's images are deleted from the image archive (for good) and the study leaves
 * the worklist; names the patient and the study so the right one goes.
 */
export function ArchiveDeleteDialog({ item, onClose }: ArchiveDeleteDialogProps) {
  const userId = useAuth((state) => state.user?.id) ?? '';
  const queryClient = useQueryClient();
  const studyUid = item.study_uid ?? '';
  const remove = useMutation({
    mutationFn: () => dicomApi.deleteStudy(studyUid, userId),
    onSuccess: async () => {
      notify('success', `Deleted the images of ${item.patient_name} from the archive`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to delete the study from the archive')),
  });
  const study = [item.study, item.modality, item.accession_number].filter(Boolean).join(' · ');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete this study from the archive?"
      description={`${item.patient_name} (${item.patient_id || 'no patient id'}) · ${study}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending || !studyUid} onClick={() => remove.mutate()}>
            {remove.isPending ? <Spinner /> : null}
            Delete from archive
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">
        The images of <strong className="text-fg">{item.patient_name}</strong>’s study{' '}
        <strong className="text-fg">{item.study ?? item.accession_number}</strong> are deleted from the image
        archive for good, and every worklist item of this study is marked deleted (its history is kept).
      </p>
    </Dialog>
  );
}
