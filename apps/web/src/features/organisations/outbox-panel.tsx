import { paginate, type TOutboxMessage } from '@ris/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns/format';
import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { DeliveryStateBadge } from '../report-output/delivery-status.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { organisationApi, organisationKeys } from './organisation-api.ts';

const PAGE_SIZE = 20;

function when(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : format(date, 'dd MMM yyyy, HH:mm');
}

const CHANNEL_LABELS = { email: 'E-mail', whatsapp: 'WhatsApp' } as const;

function MessageDialog({ message, onClose }: { message: TOutboxMessage; onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={message.subject ?? `${CHANNEL_LABELS[message.channel]} message`}
      description={`To ${message.recipient} · ${when(message.created_at)}`}
      className="w-[min(94vw,44rem)]"
    >
      <dl className="mb-3 grid grid-cols-[7rem_1fr] gap-y-1 text-[12px]">
        <dt className="text-fg-subtle">State</dt>
        <dd>
          <DeliveryStateBadge state={message.state} />
          {message.error ? <span className="ml-2 text-danger">{message.error}</span> : null}
        </dd>
        {message.attachment_name ? (
          <>
            <dt className="text-fg-subtle">Attachment</dt>
            <dd className="text-fg">{message.attachment_name}</dd>
          </>
        ) : null}
        {message.created_by_display_name ? (
          <>
            <dt className="text-fg-subtle">Sent by</dt>
            <dd className="text-fg">{message.created_by_display_name}</dd>
          </>
        ) : null}
      </dl>
      {/* The body as text: never rendered as HTML. */}
      <pre className="max-h-[50vh] overflow-auto rounded border border-line bg-canvas p-3 font-sans text-[13px] whitespace-pre-wrap text-fg">
        {message.body}
      </pre>
    </Dialog>
  );
}

/**
 * The organisation's outbound messages (GET /comm/outbox, administrators): where e-mail and WhatsApp
 * messages wait when no provider is configured, and where a failed one shows why.
 */
export function OutboxPanel() {
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<TOutboxMessage | null>(null);
  const outbox = useQuery({
    queryKey: organisationKeys.outbox(offset, PAGE_SIZE),
    queryFn: ({ signal }) => organisationApi.outbox(offset, PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  if (outbox.isPending) {
    return (
      <p className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading the outbox…
      </p>
    );
  }
  if (outbox.isError) {
    return <EmptyState icon={Inbox} title={errorMessage(outbox.error, 'Failed to load the outbox')} />;
  }
  const page = outbox.data;
  if (page.total === 0) {
    return (
      <EmptyState icon={Inbox} title="The outbox is empty.">
        E-mail and WhatsApp messages appear here; without a mail server or WhatsApp account they wait here.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Outbox" className="flex flex-col gap-3">
      <div className="overflow-x-auto rounded-lg border border-line bg-surface">
        <table className="w-full text-left text-[13px]">
          <thead className="border-b border-line text-[11px] tracking-wide text-fg-subtle uppercase">
            <tr>
              <th className="px-3 py-2 font-medium">Channel</th>
              <th className="px-3 py-2 font-medium">Recipient</th>
              <th className="px-3 py-2 font-medium">Subject</th>
              <th className="px-3 py-2 font-medium">State</th>
              <th className="px-3 py-2 font-medium">Created</th>
              <th className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {page.items.map((message) => (
              <tr key={message.id} className="hover:bg-surface-hover">
                <td className="px-3 py-2 text-fg-muted">{CHANNEL_LABELS[message.channel]}</td>
                <td className="max-w-56 truncate px-3 py-2 text-fg">{message.recipient}</td>
                <td className="max-w-80 truncate px-3 py-2 text-fg">{message.subject ?? '—'}</td>
                <td className="px-3 py-2">
                  <DeliveryStateBadge state={message.state} />
                </td>
                <td className="px-3 py-2 whitespace-nowrap text-fg-muted tabular-nums">
                  {when(message.created_at)}
                </td>
                <td className="px-3 py-2 text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setOpen(message)}
                    aria-label={`View message to ${message.recipient}`}
                  >
                    View
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PaginationBar
        label="Outbox"
        page={{ ...paginate(page.total, page.limit, page.offset), items: page.items }}
        pageSize={PAGE_SIZE}
        onOffset={setOffset}
      />
      {open ? <MessageDialog message={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
