import type { TDeliveryMessage, TDeliveryState } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns/format';
import { Mail, MessageCircle } from 'lucide-react';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { cn } from '../../components/ui/cn.ts';
import { reportOutputApi, reportOutputKeys } from './report-output-api.ts';

/** While a delivery is pending the list asks again this often (ms). */
export const DELIVERY_REFRESH_MS = 3_000;

export const DELIVERY_STATE_LABELS: Record<TDeliveryState, string> = {
  pending: 'pending',
  sent: 'sent',
  failed: 'failed',
  outbox: 'in outbox',
};

const STATE_CLASSES: Record<TDeliveryState, string> = {
  pending: 'border-amber-500/40 bg-amber-500/10 text-amber-600 dark:text-amber-300',
  sent: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  failed: 'border-danger/50 bg-danger-soft text-danger',
  outbox: 'border-line-strong bg-surface-raised text-fg-muted',
};

/** A delivery state as a small badge (pending / sent / failed / in outbox). */
export function DeliveryStateBadge({ state }: { state: TDeliveryState }) {
  return (
    <span
      data-state={state}
      className={cn('inline-flex rounded border px-1.5 py-px text-[11px] font-medium', STATE_CLASSES[state])}
    >
      {DELIVERY_STATE_LABELS[state]}
    </span>
  );
}

function when(value: string | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'dd MMM yyyy, HH:mm');
}

function DeliveryRow({ message }: { message: TDeliveryMessage }) {
  const Icon = message.channel === 'email' ? Mail : MessageCircle;
  return (
    <li className="grid grid-cols-[1.25rem_minmax(0,1fr)_auto] items-start gap-x-2 py-2 text-[13px]">
      <Icon
        aria-label={message.channel === 'email' ? 'E-mail' : 'WhatsApp'}
        className="mt-0.5 size-4 text-fg-subtle"
      />
      <div className="min-w-0">
        <p className="truncate text-fg">{message.recipient}</p>
        <p className="text-[12px] text-fg-subtle">
          {when(message.sent_at ?? message.created_at)}
          {message.created_by_display_name ? ` · by ${message.created_by_display_name}` : ''}
          {message.with_letterhead ? ' · with letterhead' : ''}
        </p>
        {message.error && (message.state === 'failed' || message.state === 'pending') ? (
          <p className={cn('text-[12px]', message.state === 'failed' ? 'text-danger' : 'text-fg-muted')}>
            {message.state === 'failed' ? message.error : `Retrying: ${message.error}`}
          </p>
        ) : null}
      </div>
      <DeliveryStateBadge state={message.state} />
    </li>
  );
}

/**
 * The deliveries of the study's report (GET /comm/messages?worklist_id=), newest first; asked again
 * every 3 s while any is pending, so a message is seen going out (or failing) without a reload.
 */
export function DeliveryStatusList({ worklistId }: { worklistId: string }) {
  const deliveries = useQuery({
    queryKey: reportOutputKeys.deliveries(worklistId),
    queryFn: ({ signal }) => reportOutputApi.deliveries(worklistId, signal),
    refetchInterval: (query) =>
      query.state.data?.some((message) => message.state === 'pending') ? DELIVERY_REFRESH_MS : false,
  });
  if (deliveries.isPending) return null;
  if (deliveries.isError) {
    // Someone who may not see deliveries (403/404) simply has no list.
    if (isApiError(deliveries.error) && [403, 404].includes(deliveries.error.status)) return null;
    return (
      <p className="text-[12px] text-fg-muted">
        {errorMessage(deliveries.error, 'The delivery status could not be loaded.')}
      </p>
    );
  }
  if (deliveries.data.length === 0) return null;
  return (
    <section aria-label="Deliveries" className="rounded-lg border border-line bg-surface px-5 py-3">
      <h2 className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Deliveries</h2>
      <ul className="divide-y divide-line">
        {deliveries.data.map((message) => (
          <DeliveryRow key={message.id} message={message} />
        ))}
      </ul>
    </section>
  );
}
