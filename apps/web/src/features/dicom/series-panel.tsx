import { type TDicomSeries, type TWorklistItem } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, ImageOff, Layers, PanelRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { useStoredImageUrl } from '../../components/hooks/use-stored-image-url.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { fetchViewerLink } from '../viewers/viewer-link.ts';
import { dicomApi, dicomKeys, seriesThumbnailPath } from './dicom-api.ts';
import { openViewerBeside, useOpenViewerBeside } from './viewer-beside.ts';

function SeriesThumbnail({ studyUid, series }: { studyUid: string; series: TDicomSeries }) {
  const url = useStoredImageUrl(seriesThumbnailPath(studyUid, series.series_uid), series.series_uid);
  const title = [series.modality, series.description].filter(Boolean).join(' · ') || 'Series';
  return (
    <li className="flex w-32 flex-col gap-1" data-testid="series-thumbnail">
      <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md border border-line bg-black">
        {url ? (
          <img
            src={url}
            alt={`Series ${series.number ?? ''} ${title}`}
            className="size-full object-contain"
          />
        ) : (
          <ImageOff aria-hidden="true" className="size-5 text-fg-subtle" />
        )}
      </div>
      <span className="truncate text-[12px] text-fg" title={title}>
        {series.number !== null ? `${series.number}. ` : ''}
        {title}
      </span>
      <span className="text-[11px] text-fg-muted">
        {series.instance_count ?? '?'} {series.instance_count === 1 ? 'image' : 'images'}
      </span>
    </li>
  );
}

/** Opens the study in the viewer window; `quietly` (the automatic opening) says nothing when it cannot. */
async function openBeside(studyUid: string, quietly = false): Promise<void> {
  try {
    const link = await fetchViewerLink(studyUid, 'ohif');
    if (!openViewerBeside(link.url) && !quietly)
      notify('error', 'The viewer window could not be opened (allow pop-ups for this site)');
  } catch (error) {
    if (!quietly) notify('error', errorMessage(error, 'Failed to open the viewer'));
  }
}

/**
 * The reporting screen's "Series" panel: the study's series from the archive with thumbnails, and
 * the viewer in a second window beside the editor (on request, or for every study when the user
 * chose so; remembered per user). Needs the study's DICOM UID.
 */
export function SeriesPanel({ item }: { item: TWorklistItem }) {
  const studyUid = item.study_uid;
  const userId = useAuth((state) => state.user?.id);
  const [open, setOpen] = useState(true);
  const [beside, setBeside] = useOpenViewerBeside(userId);
  const series = useQuery({
    queryKey: dicomKeys.series(studyUid ?? ''),
    queryFn: ({ signal }) => dicomApi.series(studyUid ?? '', signal),
    enabled: open && !!studyUid,
    staleTime: 60_000,
    retry: false,
  });

  // A study opened on this screen follows in the viewer window when the user chose so.
  useEffect(() => {
    if (beside && studyUid) void openBeside(studyUid, true);
  }, [beside, studyUid]);

  if (!studyUid) return null;
  const count = series.data?.length;
  return (
    <section aria-label="Series" className="rounded-lg border border-line bg-surface">
      <div className="flex flex-wrap items-center gap-3 px-5 py-2.5">
        <button
          type="button"
          className="flex items-center gap-1.5 text-[13px] font-medium text-fg"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? (
            <ChevronDown aria-hidden="true" className="size-4" />
          ) : (
            <ChevronRight aria-hidden="true" className="size-4" />
          )}
          <Layers aria-hidden="true" className="size-4 text-fg-subtle" /> Series
          {count !== undefined ? <span className="text-fg-muted">({count})</span> : null}
        </button>
        <span className="ml-auto flex items-center gap-3">
          <label className="flex items-center gap-1.5 text-[12px] text-fg-muted">
            <input type="checkbox" checked={beside} onChange={(event) => setBeside(event.target.checked)} />
            Always open beside the editor
          </label>
          <Button variant="secondary" size="sm" onClick={() => void openBeside(studyUid)}>
            <PanelRight aria-hidden="true" className="size-3.5" /> Open viewer beside
          </Button>
        </span>
      </div>
      {open ? (
        <div className="border-t border-line px-5 py-3">
          {series.isPending ? (
            <p className="flex items-center gap-2 text-[13px] text-fg-muted">
              <Spinner /> Loading the series…
            </p>
          ) : series.isError ? (
            <p className="text-[13px] text-fg-muted">
              {errorMessage(series.error, 'The series could not be loaded')}
            </p>
          ) : series.data.length === 0 ? (
            <p className="text-[13px] text-fg-muted">The archive holds no images of this study yet.</p>
          ) : (
            <ul className="flex flex-wrap gap-3">
              {series.data.map((entry) => (
                <SeriesThumbnail key={entry.series_uid} studyUid={studyUid} series={entry} />
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </section>
  );
}
