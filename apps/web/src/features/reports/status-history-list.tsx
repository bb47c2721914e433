import { useQuery } from '@tanstack/react-query';
import { StatusText } from '../worklist/worklist-cells.tsx';
import { reportKeys } from './reports-api.ts';
import { fetchStatusHistory } from './status-history.ts';
import { formatDate } from './study-header.tsx';

/** Every status change of the study: when, from, to, by whom, and the comment of a hand-off. */
export function StatusHistoryList({ id }: { id: string }) {
  const history = useQuery({
    queryKey: reportKeys.history(id),
    queryFn: ({ signal }) => fetchStatusHistory(id, signal),
  });
  if (!history.data || history.data.history.length === 0) return null;
  return (
    <section aria-labelledby="history-title" className="rounded-lg border border-line bg-surface px-5 py-3">
      <h2 id="history-title" className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
        Status history
      </h2>
      <ol className="mt-2 flex flex-col gap-1.5 text-[13px]">
        {history.data.history.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center gap-2 text-fg-muted">
            <time className="w-36 tabular-nums" dateTime={entry.created_at}>
              {formatDate(entry.created_at, 'dd MMM yyyy, HH:mm')}
            </time>
            {entry.from_status ? <StatusText status={entry.from_status} /> : null}
            {entry.from_status ? <span aria-label="to">→</span> : null}
            <StatusText status={entry.to_status} />
            <span>{entry.by_user_display_name ? `by ${entry.by_user_display_name}` : 'by the system'}</span>
            {entry.comment ? <q className="text-fg italic">{entry.comment}</q> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
