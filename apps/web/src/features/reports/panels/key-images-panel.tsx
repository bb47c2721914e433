import { FALLBACK_ERROR_MESSAGES, type TReport, type TReportImage } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImagePlus, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../api/api-error.ts';
import { UploadProgress } from '../../../components/ui/upload-progress.tsx';
import { notify } from '../../../stores/app-store.ts';
import { authedImages } from '../authed-images.ts';
import { reportKeys, reportsApi } from '../reports-api.ts';

/** A key image's thumbnail, fetched with the bearer token. */
function Thumbnail({ image }: { image: TReportImage }) {
  const [loaded, setLoaded] = useState<{ src: string; url: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    authedImages
      .url(image.url)
      .then((url) => live && setLoaded({ src: image.url, url }))
      .catch(() => live && setFailed(image.url));
    return () => {
      live = false;
    };
  }, [image.url]);
  if (failed === image.url) return <span className="text-[10px] text-fg-subtle">Not loaded</span>;
  if (loaded?.src !== image.url) return <span className="size-full animate-pulse bg-surface-hover" />;
  return <img src={loaded.url} alt={image.caption ?? image.filename} className="size-full object-cover" />;
}

/**
 * The report's key images: upload (images only), thumbnails, a click inserts the image at the caret
 * (by its API path), delete.
 */
export function KeyImagesPanel({
  editor,
  editable,
  report,
}: {
  editor: Editor;
  editable: boolean;
  report: TReport;
}) {
  const inputId = useId();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: reportKeys.report(report.worklist_id) });

  const upload = useMutation({
    mutationFn: (files: File[]) => reportsApi.uploadImages(report.id, files, (p) => setProgress(p.percent)),
    onSuccess: async () => {
      await refresh();
      notify('success', 'Key images uploaded');
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateReport)),
    onSettled: () => setProgress(null),
  });
  const remove = useMutation({
    mutationFn: (image: TReportImage) => reportsApi.deleteImage(report.id, image.id),
    onSuccess: async (_, image) => {
      authedImages.forget(image.url);
      await refresh();
      notify('success', `Deleted ${image.filename}`);
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateReport)),
  });

  const insert = (image: TReportImage): void => {
    editor
      .chain()
      .focus()
      .setImage({ src: image.url, alt: image.caption ?? image.filename })
      .run();
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      {editable ? (
        <label
          htmlFor={inputId}
          className="flex cursor-pointer items-center gap-2 rounded-md border border-dashed border-line-strong px-3 py-2 text-[12px] text-fg-muted hover:border-accent hover:text-fg"
        >
          <ImagePlus aria-hidden="true" className="size-4" /> Upload key images (PNG, JPEG, WebP, GIF)
        </label>
      ) : null}
      <input
        id={inputId}
        type="file"
        multiple
        accept="image/png,image/jpeg,image/webp,image/gif"
        className="sr-only"
        disabled={!editable || upload.isPending}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) upload.mutate(files);
        }}
      />
      <UploadProgress percent={progress} />
      {report.images.length === 0 ? (
        <p className="text-[12px] text-fg-subtle">No key images yet.</p>
      ) : (
        <ul aria-label="Key images" className="grid grid-cols-2 gap-2 overflow-y-auto">
          {report.images.map((image) => (
            <li key={image.id} className="group relative">
              <button
                type="button"
                disabled={!editable}
                onClick={() => insert(image)}
                aria-label={`Insert ${image.filename}`}
                title={editable ? 'Insert at the caret' : image.filename}
                className="flex aspect-square w-full items-center justify-center overflow-hidden rounded border border-line bg-canvas hover:border-accent"
              >
                <Thumbnail image={image} />
              </button>
              {editable ? (
                <button
                  type="button"
                  aria-label={`Delete ${image.filename}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(image)}
                  className="absolute top-1 right-1 rounded bg-surface/90 p-1 text-fg-muted opacity-0 group-hover:opacity-100 hover:text-danger focus-visible:opacity-100"
                >
                  <Trash2 aria-hidden="true" className="size-3.5" />
                </button>
              ) : null}
              <p className="mt-0.5 truncate text-[11px] text-fg-subtle">{image.filename}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
