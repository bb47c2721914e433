import { FALLBACK_ERROR_MESSAGES, PAGE_SIZES, type TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CopyPlus, Play, Plus } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tooltip } from '../../components/ui/tooltip.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { defaultWorklistFilters, type TWorklistFilters } from '../../stores/settings-store.ts';
import { ConnectionIndicator } from '../realtime/connection-indicator.tsx';
import { useWorklistLiveUpdates } from '../worklist/live/use-worklist-live-updates.ts';
import { useOpenItem } from '../tabs/open-tabs-bar.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { DateTimeCell, Muted, PriorityBadge } from '../worklist/worklist-cells.tsx';
import { worklistKeys } from '../worklist/worklist-api.ts';
import { WorklistFilters } from '../worklist/worklist-filters.tsx';
import { useWorklistData } from '../worklist/use-worklist-data.ts';
import { ActivateDialog } from './activate-dialog.tsx';
import { CreateOrderDialog } from './create-order-dialog.tsx';
import { ordersApi } from './orders-api.ts';

function ordersFilters(): TWorklistFilters {
  return { ...defaultWorklistFilters(), date_range_type: 'LAST_1_MONTH' };
}

/** /orders: the orders (Ordered items), newest first, ten a page; create, activate, duplicate. */
export function OrdersPage() {
  // The server's worklist policy decides: creating at all (capabilities), each order's actions (abilities).
  const mayOrder = useAuth((state) => state.capabilities.create_order);
  const [filters, setFilters] = useState<TWorklistFilters>(ordersFilters);
  const [creating, setCreating] = useState(false);
  const [activating, setActivating] = useState<TWorklistItem | null>(null);
  const openItem = useOpenItem();
  const queryClient = useQueryClient();
  useWorklistLiveUpdates({ toasts: false });
  const data = useWorklistData({ filters, group: 'ORDERED', pageSize: PAGE_SIZES.orders, withCounts: false });

  const duplicate = useMutation({
    mutationFn: (item: TWorklistItem) => ordersApi.duplicate(item.id),
    onSuccess: async (copy) => {
      notify('success', `Duplicated as order ${copy.accession_number}`);
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.createWorklistOrder)),
  });

  return (
    <Page
      wide
      title="Orders"
      description="Studies ordered and waiting for their images."
      actions={
        <div className="flex items-center gap-2">
          <ConnectionIndicator />
          {mayOrder ? (
            <Button size="sm" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" className="size-3.5" />
              New order
            </Button>
          ) : null}
        </div>
      }
    >
      <WorklistFilters
        compact
        filters={filters}
        onChange={(patch) => setFilters((current) => ({ ...current, ...patch }))}
        onReset={() => setFilters(ordersFilters())}
      />
      <div className="overflow-x-auto rounded-lg border border-line bg-surface">
        <table className="w-full border-collapse text-[12.5px]" aria-busy={data.isLoading}>
          <caption className="sr-only">Orders</caption>
          <thead className="bg-surface-raised">
            <tr className="border-b border-line text-left text-xs font-medium whitespace-nowrap text-fg-muted [&>th]:px-2">
              <th scope="col" className="h-9">
                Patient
              </th>
              <th scope="col">Patient ID</th>
              <th scope="col">Accession</th>
              <th scope="col">Modality</th>
              <th scope="col">Study</th>
              <th scope="col">Ordered</th>
              <th scope="col">Referring physician</th>
              <th scope="col">Facility</th>
              <th scope="col" className="text-right">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.page.items.map((item) => (
              <tr
                key={item.id}
                className="border-b border-line whitespace-nowrap last:border-b-0 hover:bg-surface-hover/60 [&>td]:px-2"
              >
                <td className="h-10">
                  <span className="flex items-center gap-2">
                    <button
                      type="button"
                      onClick={() => openItem(item)}
                      className="font-medium text-fg hover:text-accent hover:underline"
                    >
                      {item.patient_name}
                    </button>
                    {item.priority_tag ? <PriorityBadge tag={item.priority_tag} /> : null}
                  </span>
                </td>
                <td className="font-mono text-[11.5px] text-fg-muted">{item.patient_id}</td>
                <td className="font-mono text-[11.5px] text-fg-muted">{item.accession_number}</td>
                <td>
                  <Muted>{item.modality}</Muted>
                </td>
                <td>
                  <span className="block max-w-32 truncate" title={item.study ?? undefined}>
                    <Muted>{item.study}</Muted>
                  </span>
                </td>
                <td className="py-1">
                  <DateTimeCell item={{ ...item, datetime: item.created_at }} now={new Date()} />
                </td>
                <td>
                  <span className="block max-w-32 truncate" title={item.referring_physician ?? undefined}>
                    <Muted>{item.referring_physician}</Muted>
                  </span>
                </td>
                <td>
                  <span className="block max-w-32 truncate" title={item.facility}>
                    {item.facility}
                  </span>
                </td>
                <td>
                  {item.abilities.activate || item.abilities.duplicate ? (
                    <span className="flex justify-end gap-1">
                      {item.abilities.activate ? (
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => setActivating(item)}
                          aria-label={`Activate the order of ${item.patient_name}`}
                        >
                          <Play aria-hidden="true" className="size-3.5" /> Activate
                        </Button>
                      ) : null}
                      {item.abilities.duplicate ? (
                        <Tooltip content="Duplicate as a new order">
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-7"
                            disabled={duplicate.isPending}
                            onClick={() => duplicate.mutate(item)}
                            aria-label={`Duplicate the order of ${item.patient_name}`}
                          >
                            <CopyPlus aria-hidden="true" className="size-3.5" />
                          </Button>
                        </Tooltip>
                      ) : null}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data.isLoading ? (
          <p className="flex items-center justify-center gap-2 py-10 text-[13px] text-fg-muted">
            <Spinner /> Loading orders…
          </p>
        ) : data.page.items.length === 0 ? (
          <p className="px-4 py-12 text-center text-[13px] text-fg-muted">
            {data.failed ? 'The orders could not be loaded.' : 'No orders match these filters.'}
          </p>
        ) : null}
      </div>
      <PaginationBar label="Orders" page={data.page} pageSize={PAGE_SIZES.orders} onOffset={data.setOffset} />
      {mayOrder ? <CreateOrderDialog open={creating} onOpenChange={setCreating} /> : null}
      <ActivateDialog item={activating} onClose={() => setActivating(null)} />
    </Page>
  );
}
