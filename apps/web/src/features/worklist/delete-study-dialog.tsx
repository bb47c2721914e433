import type { TWorklistItem } from '@ris/domain';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

export interface DeleteStudyDialogProps {
  item: TWorklistItem;
  pending: boolean;
  onCancel: () => void;
  onDelete: (item: TWorklistItem) => void;
}

/** Asks before a study leaves the worklist (loaded with the first deletion, not with the list). */
export function DeleteStudyDialog({ item, pending, onCancel, onDelete }: DeleteStudyDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title="Delete this study?"
      description={`${item.patient_name} · ${item.study ?? item.accession_number}`}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={() => onDelete(item)}>
            {pending ? <Spinner /> : null}
            Delete
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">The study leaves the worklist; its history is kept.</p>
    </Dialog>
  );
}
