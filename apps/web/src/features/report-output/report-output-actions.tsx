import type { TReport, TWorklistItem } from '@ris/domain';
import { Eye, Share2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { DownloadMenu } from './download-menu.tsx';
import { PreviewDialog } from './preview-dialog.tsx';
import { ShareDialog } from './share-dialog.tsx';

export interface ReportOutputActionsProps {
  study: TWorklistItem;
  report: TReport;
  userId: string;
  /** The report is FINAL: its signed original may be downloaded. */
  final: boolean;
  /** The HTML the preview renders: the editor's current content (or the final text). */
  getHtml: () => string;
}

/**
 * Preview, Download and Share on the report screen. Download is offered to whoever reads the report;
 * Preview, Share and "By radiologist…" only as the report's abilities allow (the server's report
 * policy decides, and checks each request again; its message shows if it refuses).
 */
export function ReportOutputActions({ study, report, userId, final, getHtml }: ReportOutputActionsProps) {
  const letterheadByDefault = useAuth(
    (state) =>
      state.facilities.find((facility) => facility.id === study.facility_fk)?.letterhead_enabled ?? false,
  );
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const [sharing, setSharing] = useState(false);
  const { abilities } = report;

  return (
    <div className="flex flex-wrap items-center gap-2">
      {abilities.preview ? (
        <Button variant="secondary" size="sm" onClick={() => setPreviewHtml(getHtml())}>
          <Eye aria-hidden="true" className="size-3.5" /> Preview
        </Button>
      ) : null}
      <DownloadMenu
        study={study}
        report={report}
        final={final}
        canChooseSigners={abilities.choose_signers}
        letterheadByDefault={letterheadByDefault}
      />
      {abilities.share ? (
        <Button variant="secondary" size="sm" onClick={() => setSharing(true)}>
          <Share2 aria-hidden="true" className="size-3.5" /> Share
        </Button>
      ) : null}
      {previewHtml !== null ? (
        <PreviewDialog
          worklistId={study.id}
          patientName={study.patient_name}
          html={previewHtml}
          letterheadByDefault={letterheadByDefault}
          onClose={() => setPreviewHtml(null)}
        />
      ) : null}
      {sharing ? (
        <ShareDialog
          study={study}
          userId={userId}
          letterheadByDefault={letterheadByDefault}
          onClose={() => setSharing(false)}
        />
      ) : null}
    </div>
  );
}
