import { FALLBACK_ERROR_MESSAGES, type TReport, type TWorklistItem } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCheck, Save, Send, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { richTextToPlainText } from '../../components/rich-text/rich-text-content.ts';
import { inputClassName } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { worklistKeys } from '../worklist/worklist-api.ts';
import type { TCollabSession } from './collab/collab-session.ts';
import type { TReportPermissions } from './report-permissions.ts';
import { reportKeys, reportsApi, type TStudyChange } from './reports-api.ts';

export interface ReportActionsProps {
  study: TWorklistItem;
  report: TReport;
  userId: string;
  permissions: TReportPermissions;
  session: TCollabSession;
  editor: Editor | null;
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && !isApiError(error) ? error.message : errorMessage(error, fallback);
}

const STORE_WAIT_MS = 15_000;
const STORE_POLL_MS = 400;

/**
 * Resolves once the report stored on the server reads as the editor does. Saving a draft and
 * submitting for review act on the stored report, which the collaboration server writes shortly
 * (about 2 s) after the last change; acting before would submit an older text. Gives up after
 * STORE_WAIT_MS (someone else may be typing on) and lets the server decide.
 */
async function whenStored(session: TCollabSession, editor: Editor | null, worklistId: string): Promise<void> {
  await session.whenSaved();
  if (!editor) return;
  const wanted = richTextToPlainText(editor.getHTML());
  const deadline = Date.now() + STORE_WAIT_MS;
  while (richTextToPlainText((await reportsApi.get(worklistId)).content) !== wanted) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, STORE_POLL_MS));
  }
}

/**
 * Finalizes with the editor's HTML once the server has every change. The version is read just
 * before; should the collaboration server store a last change in between (409), it is read again and
 * tried once more — the HTML sent already contains that change.
 */
async function finalize(session: TCollabSession, editor: Editor, worklistId: string, reportId: string) {
  await session.whenSaved();
  const html = editor.getHTML();
  const first = await reportsApi.get(worklistId);
  try {
    return await reportsApi.finalize(reportId, html, first.version);
  } catch (error) {
    if (!isApiError(error) || error.status !== 409) throw error;
    const again = await reportsApi.get(worklistId);
    if (again.status === 'COMPLETED' || again.version === first.version) throw error;
    return reportsApi.finalize(reportId, html, again.version);
  }
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
      await whenStored(session, editor, study.id);
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
      await whenStored(session, editor, study.id);
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
      return finalize(session, editor, study.id, report.id);
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
