import { FALLBACK_ERROR_MESSAGES, type TReport, type TWorklistItem } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCheck, Save, Send, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClassName } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { ReportOutputActions } from '../report-output/report-output-actions.tsx';
import { worklistKeys } from '../worklist/worklist-api.ts';
import type { TCollabSession } from './collab/collab-session.ts';
import type { TReportActions } from './offered-actions.ts';
import { reportKeys, reportsApi, type TStudyChange } from './reports-api.ts';

export interface ReportActionsProps {
  study: TWorklistItem;
  report: TReport;
  userId: string;
  permissions: TReportActions;
  session: TCollabSession;
  editor: Editor | null;
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && !isApiError(error) ? error.message : errorMessage(error, fallback);
}

/**
 * Finalizes with the editor's HTML once the server has every change of this editor. No version is
 * sent: the server stores the live document first (a new version), and the HTML is the final text.
 */
async function finalize(session: TCollabSession, editor: Editor, reportId: string) {
  await session.whenSaved();
  return reportsApi.finalize(reportId, editor.getHTML());
}

/** Save draft, Submit for review, Return with comment, Finalize — by role and state. */
export function ReportActions({ study, report, userId, permissions, session, editor }: ReportActionsProps) {
  const queryClient = useQueryClient();
  const commentId = useId();
  const [returning, setReturning] = useState(false);
  const [comment, setComment] = useState('');
  const [confirmFinal, setConfirmFinal] = useState(false);

  const refresh = async (item?: TWorklistItem): Promise<void> => {
    if (item) queryClient.setQueryData(worklistKeys.item(study.id), item);
    await Promise.all([
      item ? null : queryClient.invalidateQueries({ queryKey: worklistKeys.item(study.id) }),
      queryClient.invalidateQueries({ queryKey: reportKeys.report(study.id) }),
      queryClient.invalidateQueries({ queryKey: reportKeys.history(study.id) }),
      queryClient.invalidateQueries({ queryKey: worklistKeys.lists() }),
    ]);
  };

  const saveDraft = useMutation({
    mutationFn: async () => {
      // Once the server has every keystroke, it stores the live document before saving.
      await session.whenSaved();
      return reportsApi.saveDraft(report.id, userId);
    },
    onSuccess: async () => {
      notify('success', 'Report saved as draft');
      await refresh();
    },
    onError: (error) => notify('error', messageOf(error, FALLBACK_ERROR_MESSAGES.updateReport)),
  });
  const changeStatus = useMutation({
    mutationFn: async (change: TStudyChange) => {
      await session.whenSaved();
      return reportsApi.changeStudy(study.id, change, userId);
    },
    onSuccess: async (item, change) => {
      notify(
        'success',
        'status' in change && change.status === 'IN_REVIEW' ? 'Submitted for review' : 'Returned to draft',
      );
      setReturning(false);
      setComment('');
      await refresh(item);
    },
    onError: (error) => notify('error', messageOf(error, FALLBACK_ERROR_MESSAGES.updateWorklist)),
  });
  const finalizeReport = useMutation({
    mutationFn: () => {
      if (!editor) throw new Error('The editor is not ready');
      return finalize(session, editor, report.id);
    },
    onSuccess: async () => {
      notify('success', 'Report finalized');
      setConfirmFinal(false);
      await refresh();
    },
    onError: (error) => notify('error', messageOf(error, FALLBACK_ERROR_MESSAGES.generateReportPdf)),
  });
  const busy = saveDraft.isPending || changeStatus.isPending || finalizeReport.isPending;

  return (
    <div className="flex flex-wrap items-center gap-2">
      <ReportOutputActions
        study={study}
        report={report}
        userId={userId}
        final={false}
        getHtml={() => editor?.getHTML() ?? report.content}
      />
      {permissions.saveDraft ? (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => saveDraft.mutate()}>
          <Save aria-hidden="true" className="size-3.5" /> {saveDraft.isPending ? 'Saving…' : 'Save draft'}
        </Button>
      ) : null}
      {permissions.submitForReview ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={busy}
          onClick={() => changeStatus.mutate({ status: 'IN_REVIEW' })}
        >
          <Send aria-hidden="true" className="size-3.5" /> Submit for review
        </Button>
      ) : null}
      {permissions.returnToDraft ? (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => setReturning(true)}>
          <Undo2 aria-hidden="true" className="size-3.5" /> Return with comment
        </Button>
      ) : null}
      {permissions.finalize ? (
        <Button size="sm" disabled={busy || !editor} onClick={() => setConfirmFinal(true)}>
          <CheckCheck aria-hidden="true" className="size-3.5" /> Finalize
        </Button>
      ) : null}

      <Dialog
        open={returning}
        onOpenChange={setReturning}
        title="Return to draft"
        description="The report goes back to whoever submitted it, with your comment."
        footer={
          <>
            <Button variant="ghost" onClick={() => setReturning(false)}>
              Cancel
            </Button>
            <Button
              disabled={changeStatus.isPending}
              onClick={() => changeStatus.mutate({ status: 'DRAFTED', comment: comment.trim() || undefined })}
            >
              Return
            </Button>
          </>
        }
      >
        <label htmlFor={commentId} className="text-[13px] font-medium text-fg">
          Comment
        </label>
        <textarea
          id={commentId}
          value={comment}
          maxLength={2000}
          rows={4}
          onChange={(event) => setComment(event.target.value)}
          className={cn(inputClassName, 'mt-1.5 h-auto py-2')}
        />
      </Dialog>

      <Dialog
        open={confirmFinal}
        onOpenChange={setConfirmFinal}
        title="Finalize the report?"
        description="A final report is signed and can then change only by addendum."
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirmFinal(false)}>
              Cancel
            </Button>
            <Button disabled={finalizeReport.isPending} onClick={() => finalizeReport.mutate()}>
              {finalizeReport.isPending ? 'Finalizing…' : 'Finalize'}
            </Button>
          </>
        }
      >
        <p className="text-[13px] text-fg-muted">
          The report of {study.patient_name} becomes final with everything written so far.
        </p>
      </Dialog>
    </div>
  );
}
