import { FALLBACK_ERROR_MESSAGES, type TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage, validationFieldErrors } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { worklistKeys } from '../worklist/worklist-api.ts';
import { DocumentsField } from './documents-field.tsx';
import { orderFormData, ordersApi } from './orders-api.ts';

export interface ActivateDialogProps {
  item: TWorklistItem | null;
  onClose: () => void;
}

/** Activates an order (POST /worklist/activate): it becomes To Read, with its study UID and documents. */
export function ActivateDialog({ item, onClose }: ActivateDialogProps) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [studyUid, setStudyUid] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = (): void => {
    setStudyUid('');
    setFiles([]);
    setProgress(null);
    setErrors({});
    onClose();
  };
  const activate = useMutation({
    mutationFn: (worklistId: string) => {
      setProgress(files.length > 0 ? 0 : null);
      return ordersApi.activate(
        orderFormData({ worklist_id: worklistId, study_uid: studyUid }, files),
        (event) => setProgress(event.percent),
      );
    },
    onSuccess: async (activated) => {
      notify('success', `Activated the order of ${activated.patient_name}`);
      close();
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => {
      setProgress(null);
      setErrors(validationFieldErrors(error));
      notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.activateWorklist));
    },
  });
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (item) activate.mutate(item.id);
  };
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => !open && !activate.isPending && close()}
      title="Activate order"
      description={
        item ? `${item.patient_name} · ${item.study ?? item.modality ?? item.accession_number}` : undefined
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={activate.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={activate.isPending}>
            {activate.isPending ? <Spinner /> : null}
            Activate
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Study instance UID"
          hint="Optional: left empty, one is generated."
          value={studyUid}
          onChange={(event) => setStudyUid(event.target.value)}
          error={errors.study_uid}
          className="font-mono"
        />
        <DocumentsField files={files} onChange={setFiles} progress={progress} disabled={activate.isPending} />
      </form>
    </Dialog>
  );
}
