import { FALLBACK_ERROR_MESSAGES, type TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileImage, FileText, Paperclip, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { notify } from '../../stores/app-store.ts';
import { worklistKeys } from '../worklist/worklist-api.ts';
import { reportsApi } from './reports-api.ts';

type TDocument = TWorklistItem['patient_documents'][number];

const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png,image/webp';

/** A document fetched with the bearer token, shown inline: PDFs in a frame, images as images. */
function DocumentViewer({ worklistId, document }: { worklistId: string; document: TDocument }) {
  const [view, setView] = useState<{ url: string; type: string } | { error: string } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    reportsApi
      .documentBlob(worklistId, document.id, controller.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setView({ url, type: blob.type || document.media_type });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setView({ error: errorMessage(error, 'Failed to open the document') });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [worklistId, document.id, document.media_type]);

  if (!view) {
    return (
      <p className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading {document.filename}…
      </p>
    );
  }
  if ('error' in view) return <p className="text-[13px] text-danger">{view.error}</p>;
  return view.type.startsWith('image/') ? (
    <img src={view.url} alt={document.filename} className="mx-auto max-h-[72vh] max-w-full object-contain" />
  ) : (
    <iframe title={document.filename} src={view.url} className="h-[72vh] w-full rounded border border-line" />
  );
}

/** The patient's documents: listed, viewed inline, uploaded with progress, removed. */
export function PatientDocuments({ item, canManage }: { item: TWorklistItem; canManage: boolean }) {
  const inputId = useId();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [viewing, setViewing] = useState<TDocument | null>(null);
  const documents = item.patient_documents;

  const settle = async (updated: TWorklistItem | null): Promise<void> => {
    if (updated) queryClient.setQueryData(worklistKeys.item(item.id), updated);
    else await queryClient.invalidateQueries({ queryKey: worklistKeys.item(item.id) });
  };
  const upload = useMutation({
    mutationFn: (files: File[]) => reportsApi.uploadDocuments(item.id, files, (p) => setProgress(p.percent)),
    onSuccess: async (updated, files) => {
      await settle(updated);
      notify(
        'success',
        files.length === 1 ? `Uploaded ${files[0]?.name}` : `Uploaded ${files.length} documents`,
      );
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateWorklist)),
    onSettled: () => setProgress(null),
  });
  const remove = useMutation({
    mutationFn: (document: TDocument) =>
      reportsApi.keepDocuments(
        item.id,
        documents.filter((other) => other.id !== document.id).map((other) => other.filename),
      ),
    onSuccess: async (updated, document) => {
      await settle(updated);
      notify('success', `Removed ${document.filename}`);
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateWorklist)),
  });

  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="rounded-lg border border-line bg-surface px-5 py-3"
    >
      <div className="flex items-center justify-between gap-3">
        <h2
          id={`${inputId}-title`}
          className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase"
        >
          Patient documents
        </h2>
        {canManage ? (
          <label
            htmlFor={inputId}
            className="flex cursor-pointer items-center gap-1.5 rounded-md px-2 py-1 text-[12px] text-fg-muted hover:bg-surface-hover hover:text-fg"
          >
            <Paperclip aria-hidden="true" className="size-3.5" /> Upload documents
          </label>
        ) : null}
        <input
          id={inputId}
          type="file"
          multiple
          accept={DOCUMENT_ACCEPT}
          className="sr-only"
          disabled={!canManage || upload.isPending}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) upload.mutate(files);
          }}
        />
      </div>
      {documents.length === 0 ? (
        <p className="mt-1.5 text-[12px] text-fg-subtle">No documents.</p>
      ) : (
        <ul className="mt-1.5 flex flex-wrap gap-2">
          {documents.map((document) => {
            const Icon = document.media_type.startsWith('image/') ? FileImage : FileText;
            return (
              <li
                key={document.id}
                className="flex items-center rounded border border-line text-[12px] text-fg-muted"
              >
                <button
                  type="button"
                  onClick={() => setViewing(document)}
                  className="flex items-center gap-1.5 px-2 py-1 hover:text-fg"
                  aria-label={`View ${document.filename}`}
                >
                  <Icon aria-hidden="true" className="size-3.5" />
                  {document.filename}
                </button>
                {canManage ? (
                  <button
                    type="button"
                    aria-label={`Remove ${document.filename}`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(document)}
                    className="border-l border-line px-1 py-1 text-fg-subtle hover:text-danger"
                  >
                    <X aria-hidden="true" className="size-3" />
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <UploadProgress percent={progress} className="mt-2" />
      {viewing ? (
        <Dialog
          open
          onOpenChange={(open) => !open && setViewing(null)}
          title={viewing.filename}
          className="w-[min(94vw,64rem)]"
        >
          <DocumentViewer worklistId={item.id} document={viewing} />
        </Dialog>
      ) : null}
    </section>
  );
}
