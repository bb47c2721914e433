import { FALLBACK_ERROR_MESSAGES, type TReport, type TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FilePlus2, Lock } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../stores/app-store.ts';
import { DeliveryStatusList } from '../report-output/delivery-status.tsx';
import { ReportOutputActions } from '../report-output/report-output-actions.tsx';
import { ReportHtmlView } from './report-html-view.tsx';
import { reportKeys, reportsApi } from './reports-api.ts';
import { formatDate } from './study-header.tsx';

function AddAddendum({ report, userId, onDone }: { report: TReport; userId: string; onDone: () => void }) {
  const [html, setHtml] = useState('');
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => reportsApi.addAddendum(report.id, html, userId),
    onSuccess: async () => {
      notify('success', 'Addendum added');
      await queryClient.invalidateQueries({ queryKey: reportKeys.report(report.worklist_id) });
      onDone();
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateReport)),
  });
  return (
    <form
      aria-label="New addendum"
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <RichTextEditor
        value={html}
        onChange={setHtml}
        ariaLabel="Addendum text"
        placeholder="Write the addendum…"
        minHeight={140}
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={add.isPending || html.trim() === ''}>
          Submit addendum
        </Button>
      </div>
    </form>
  );
}

/**
 * A FINAL report: read-only, its addenda below it, and "Add addendum" for who may sign; preview,
 * download and share, and the state of its deliveries.
 */
export function FinalReport({
  study,
  report,
  userId,
  canAddAddendum,
}: {
  study: TWorklistItem;
  report: TReport;
  userId: string;
  canAddAddendum: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const signedBy = report.authors.find((author) => author.signed)?.display_name ?? null;
  return (
    <section aria-label="Report" className="flex flex-col gap-3">
      <div className="flex justify-end">
        <ReportOutputActions
          study={study}
          report={report}
          userId={userId}
          final
          getHtml={() => report.content}
        />
      </div>
      <div className="rounded-lg border border-line bg-surface">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-5 py-2.5 text-[12px] text-fg-muted">
          <Lock aria-hidden="true" className="size-3.5" />
          <span className="font-medium text-fg">Final report</span>
          {report.finalized_at ? (
            <span>
              finalized {formatDate(report.finalized_at, 'dd MMM yyyy, HH:mm')}
              {signedBy ? ` by ${signedBy}` : ''}
            </span>
          ) : null}
          <span className="ml-auto">A final report changes only by addendum.</span>
        </div>
        <div className="px-6 py-5">
          <ReportHtmlView html={report.content} label="Report text" />
        </div>
      </div>
      {report.addenda.map((addendum) => (
        <article
          key={addendum.version}
          aria-label={`Addendum ${formatDate(addendum.created_at, 'dd MMM yyyy, HH:mm') ?? ''}`}
          className="rounded-lg border border-line bg-surface"
        >
          <header className="border-b border-line px-5 py-2 text-[12px] text-fg-muted">
            <span className="font-medium text-fg">Addendum</span>{' '}
            {formatDate(addendum.created_at, 'dd MMM yyyy, HH:mm')}
            {addendum.created_by_display_name ? ` · ${addendum.created_by_display_name}` : ''}
          </header>
          <div className="px-6 py-4">
            <ReportHtmlView html={addendum.content} label="Addendum text" />
          </div>
        </article>
      ))}
      {canAddAddendum ? (
        adding ? (
          <AddAddendum report={report} userId={userId} onDone={() => setAdding(false)} />
        ) : (
          <div>
            <Button variant="secondary" onClick={() => setAdding(true)}>
              <FilePlus2 aria-hidden="true" className="size-4" /> Add addendum
            </Button>
          </div>
        )
      ) : null}
      <DeliveryStatusList worklistId={study.id} />
    </section>
  );
}
