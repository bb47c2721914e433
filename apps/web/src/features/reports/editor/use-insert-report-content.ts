import type { Editor } from '@tiptap/core';
import { useEffect } from 'react';
import { realtime } from '../../realtime/realtime.ts';
import type { TCollabSession } from '../collab/collab-session.ts';

interface TInsertMessage {
  reportId: string;
  content: string;
  /** Who the content is for (dictation: the person dictating), when the message says. */
  userId: string | null;
}

/** The data of an `insert-report-content` message, or null when it is malformed. */
export function parseInsertMessage(data: unknown): TInsertMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (typeof record.report_id !== 'string' || typeof record.content !== 'string') return null;
  const user = record.by_user_id ?? record.user_id;
  return {
    reportId: record.report_id,
    content: record.content,
    userId: typeof user === 'string' ? user : null,
  };
}

/**
 * Inserts the content of `insert-report-content` messages (topic worklist-{id}) for this report at
 * the caret. Every open editor receives the message but one inserts it — the one it is addressed to
 * when it names a user, else the collaboration's insert leader (a focused writable editor first) —
 * and collaboration brings the text to the others.
 */
export function useInsertReportContent(
  editor: Editor | null,
  session: Pick<TCollabSession, 'isInsertLeader'>,
  reportId: string,
  userId: string,
): void {
  useEffect(() => {
    if (!editor) return;
    return realtime.subscribe((message) => {
      if (message.type !== 'insert-report-content') return;
      const insert = parseInsertMessage(message.data);
      if (!insert || insert.reportId !== reportId || insert.content === '') return;
      if (editor.isDestroyed || !editor.isEditable) return;
      if (insert.userId ? insert.userId !== userId : !session.isInsertLeader()) return;
      editor.commands.insertContent(insert.content);
    });
  }, [editor, session, reportId, userId]);
}
