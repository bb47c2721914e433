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
  /** The report is FINAL: it may be shared, and its signed original downloaded. */
  final: boolean;
  /** The caller may edit the report now: only then may unsaved text be previewed (the server's rule). */
  canEdit: boolean;
  /** The HTML the preview renders: the editor's current content (or the final text). */
  getHtml: () => string;
}

/**
 * Preview (for who may edit the report), Download and (for a final report) Share on the report
 * screen. Download and Share are offered to whoever may read the report; "By radiologist…" to
 * administrators, facility administrators and editors (the server's rules, report-output.policy.ts
 * and comm.policy.ts); its message shows if it refuses.
 */
export function ReportOutputActions({
  study,
  report,
  userId,
  final,
  canEdit,
  getHtml,
}: ReportOutputActionsProps) {
  const role = useAuth((state) => state.user?.role ?? null);
  const letterheadByDefault = useAuth(
    (state) =>
      state.facilities.find((facility) => facility.id === study.facility_fk)?.letterhead_enabled ?? false,
  );
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const [sharing, setSharing] = useState(false);
  const referrer = role === 'REFERRING_PHYSICIAN';
  const canChooseSigners = canEdit || role === 'ADMIN' || role === 'FACILITY_ADMIN';

  return (
    <div className="flex flex-wrap items-center gap-2">
      {canEdit ? (
        <Button variant="secondary" size="sm" onClick={() => setPreviewHtml(getHtml())}>
          <Eye aria-hidden="true" className="size-3.5" /> Preview
        </Button>
      ) : null}
      <DownloadMenu
        study={study}
        report={report}
        final={final}
        canListRadiologists={!referrer}
        canChooseSigners={canChooseSigners}
        letterheadByDefault={letterheadByDefault}
      />
      {final ? (
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
