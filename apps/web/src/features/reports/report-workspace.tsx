import { FALLBACK_ERROR_MESSAGES, type TMacro, type TReport, type TWorklistItem } from '@ris/domain';
import { REPORT_FRAGMENT, reportExtensions } from '@ris/editor';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AudioLines, BookOpenText, Images, TextCursorInput, Users, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { errorMessage } from '../../api/api-error.ts';
import { EditorToolbar } from '../../components/rich-text/editor-toolbar.tsx';
import { RICH_TEXT_CONTENT_CLASS } from '../../components/rich-text/rich-text-content.ts';
import { cn } from '../../components/ui/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { notify } from '../../stores/app-store.ts';
import { DictationControls } from '../dictation/dictation-controls.tsx';
import { RecordingsPanel } from '../dictation/recordings-panel.tsx';
import { worklistKeys } from '../worklist/worklist-api.ts';
import { authedImages } from './authed-images.ts';
import type { TCollabSession } from './collab/collab-session.ts';
import { StateLine } from './collab/state-line.tsx';
import { useCollabSession } from './collab/use-collab-session.ts';
import { userColour } from './collab/user-colour.ts';
import { withAuthedImages } from './editor/authed-image.ts';
import { dictationSources } from './editor/dictation-sources.ts';
import { MacroExpansion } from './editor/macro-expansion.ts';
import { useInsertReportContent } from './editor/use-insert-report-content.ts';
import { KeyImagesPanel } from './panels/key-images-panel.tsx';
import { MacrosPanel } from './panels/macros-panel.tsx';
import { TemplatesPanel } from './panels/templates-panel.tsx';
import { ReportActions } from './report-actions.tsx';
import type { TReportActions } from './offered-actions.ts';
import { reportKeys, reportsApi } from './reports-api.ts';

type TPanel = 'templates' | 'macros' | 'images' | 'recordings';

const PANELS: readonly { id: TPanel; label: string; icon: typeof Images }[] = [
  { id: 'templates', label: 'Templates', icon: BookOpenText },
  { id: 'macros', label: 'Macros', icon: TextCursorInput },
  { id: 'images', label: 'Key images', icon: Images },
  { id: 'recordings', label: 'Recordings', icon: AudioLines },
];

export interface ReportWorkspaceProps {
  study: TWorklistItem;
  report: TReport;
  user: { id: string; name: string };
  permissions: TReportActions;
}

/** Collaboration on/off for the study (assigned radiologist, admin): transcriptionists edit while on. */
function CollaborationSwitch({ study, userId }: { study: TWorklistItem; userId: string }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      reportsApi.changeStudy(study.id, { collaboration_enabled: enabled }, userId),
    onSuccess: (item) => {
      queryClient.setQueryData(worklistKeys.item(study.id), item);
      notify('success', item.collaboration_enabled ? 'Collaboration enabled' : 'Collaboration disabled');
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateWorklist)),
  });
  const on = study.collaboration_enabled;
  return (
    <Switch
      checked={on}
      disabled={toggle.isPending}
      onCheckedChange={(next) => toggle.mutate(next)}
      className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-[12px] text-fg-muted hover:bg-surface-hover hover:text-fg"
    >
      <Users aria-hidden="true" className="size-3.5" />
      Collaboration
    </Switch>
  );
}

function CollaborativeReport({
  session,
  study,
  report,
  user,
  permissions,
}: ReportWorkspaceProps & { session: TCollabSession }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const queryClient = useQueryClient();
  const macros = useQuery({
    queryKey: reportKeys.macros(user.id),
    queryFn: ({ signal }) => reportsApi.macros(user.id, signal),
  });
  const spokenSources = useMemo(() => dictationSources(queryClient, user.id), [queryClient, user.id]);
  const editor = useEditor(
    {
      extensions: [
        ...withAuthedImages(reportExtensions({ collaboration: true }), authedImages),
        Collaboration.configure({ document: session.doc, field: REPORT_FRAGMENT }),
        CollaborationCaret.configure({ provider: session.provider, user: session.user }),
        // Read at each key press: the macros may arrive after the editor started.
        MacroExpansion.configure({
          getMacros: () => queryClient.getQueryData<TMacro[]>(reportKeys.macros(user.id)) ?? [],
        }),
      ],
      editable: false,
      editorProps: {
        attributes: {
          class: cn(RICH_TEXT_CONTENT_CLASS, 'min-h-[420px] px-8 py-6 outline-none'),
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': 'Report text',
        },
      },
    },
    [session],
  );

  const scope = useStore(session.state, (state) => state.scope);
  const denied = useStore(session.state, (state) => state.denied);
  const editable = permissions.edit && scope === 'read-write';
  useEffect(() => {
    if (!editor || editor.isDestroyed || editor.isEditable === editable) return;
    editor.setEditable(editable);
  }, [editor, editable]);
  useEffect(() => {
    session.setPresence({ writable: editable });
  }, [session, editable]);
  useEffect(() => {
    if (!editor) return;
    const focus = () => session.setPresence({ focused: true });
    const blur = () => session.setPresence({ focused: false });
    editor.on('focus', focus);
    editor.on('blur', blur);
    return () => {
      editor.off('focus', focus);
      editor.off('blur', blur);
    };
  }, [editor, session]);
  useInsertReportContent(editor, session, report.id, user.id);

  return (
    <section aria-label="Report" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <StateLine session={session} readOnly={scope === 'readonly' || !permissions.edit} />
        <div className="flex flex-wrap items-center gap-2">
          {permissions.toggleCollaboration ? <CollaborationSwitch study={study} userId={user.id} /> : null}
          <ReportActions
            study={study}
            report={report}
            userId={user.id}
            permissions={permissions}
            session={session}
            editor={editor}
          />
        </div>
      </div>
      {denied ? <p className="text-[13px] text-danger">{denied}</p> : null}
      <div className="flex min-h-0 items-start gap-3">
        <div className="min-w-0 flex-1 overflow-hidden rounded-lg border border-line bg-surface">
          <EditorToolbar
            editor={editor}
            ariaLabel="Report formatting"
            extra={[
              <DictationControls
                key="dictation"
                editor={editor}
                reportId={report.id}
                editable={editable}
                sources={spokenSources}
              />,
              ...PANELS.map(({ id, label, icon: Icon }) => (
                <button
                  key={id}
                  type="button"
                  aria-pressed={panel === id}
                  onClick={() => setPanel(panel === id ? null : id)}
                  className={cn(
                    'inline-flex h-7 items-center gap-1.5 rounded px-2 text-[12px]',
                    panel === id
                      ? 'bg-accent-soft text-fg'
                      : 'text-fg-muted hover:bg-surface-hover hover:text-fg',
                  )}
                >
                  <Icon aria-hidden="true" className="size-3.5" /> {label}
                </button>
              )),
            ]}
          />
          <EditorContent editor={editor} />
        </div>
        {panel && editor ? (
          <aside
            aria-label={PANELS.find((entry) => entry.id === panel)?.label}
            className="sticky top-3 flex max-h-[calc(100vh-8rem)] w-80 shrink-0 flex-col gap-2 rounded-lg border border-line bg-surface p-3"
          >
            <div className="flex items-center justify-between">
              <h2 className="text-[12px] font-semibold text-fg">
                {PANELS.find((entry) => entry.id === panel)?.label}
              </h2>
              <button
                type="button"
                aria-label="Close panel"
                onClick={() => setPanel(null)}
                className="rounded p-0.5 text-fg-subtle hover:bg-surface-hover hover:text-fg"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </div>
            {panel === 'templates' ? (
              <TemplatesPanel editor={editor} editable={editable} defaultModality={study.modality_group} />
            ) : panel === 'macros' ? (
              <MacrosPanel editor={editor} editable={editable} macros={macros} />
            ) : panel === 'recordings' ? (
              <RecordingsPanel editor={editor} editable={editable} reportId={report.id} />
            ) : (
              <KeyImagesPanel editor={editor} editable={editable} report={report} />
            )}
          </aside>
        ) : null}
      </div>
    </section>
  );
}

/** The report being written: the collaborative editor, its state, panels and actions. */
export function ReportWorkspace(props: ReportWorkspaceProps) {
  const { id, name } = props.user;
  const caretUser = useMemo(() => ({ id, name, color: userColour(id) }), [id, name]);
  const session = useCollabSession(props.report.id, caretUser);
  if (!session) {
    return (
      <p className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Opening the report…
      </p>
    );
  }
  return <CollaborativeReport {...props} session={session} />;
}
