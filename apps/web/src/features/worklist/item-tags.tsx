import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useMemo } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import { worklistApi, worklistKeys, type TItemTag } from './worklist-api.ts';

/** Tags by worklist item id, in the order the API listed them. */
export function groupItemTags(tags: readonly TItemTag[]): Map<string, TItemTag[]> {
  const byItem = new Map<string, TItemTag[]>();
  for (const entry of tags) {
    const list = byItem.get(entry.worklist_id);
    if (list) list.push(entry);
    else byItem.set(entry.worklist_id, [entry]);
  }
  return byItem;
}

/**
 * The tags the signed-in user put on worklist items (GET /worklist/worklist-tags/{user id}), by item.
 * The worklist items themselves carry no tags, so this is what the rows show.
 */
export function useItemTags(userId: string): ReadonlyMap<string, TItemTag[]> {
  const query = useQuery({
    queryKey: worklistKeys.itemTags(userId),
    queryFn: ({ signal }) => worklistApi.itemTags(userId, signal),
    enabled: userId !== '',
    staleTime: 30_000,
  });
  return useMemo(() => groupItemTags(query.data ?? []), [query.data]);
}

/** An item's tags as small chips, each with a button removing it (DELETE /worklist/worklist-tag/{id}). */
export function ItemTags({
  tags,
  patientName,
}: {
  tags: readonly TItemTag[] | undefined;
  patientName: string;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (entry: TItemTag) => worklistApi.removeItemTag(entry.id),
    onSuccess: async (_, entry) => {
      notify('success', `Removed the tag ${entry.tag.name}`);
      await queryClient.invalidateQueries({ queryKey: ['worklist', 'item-tags'] });
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to remove tag')),
  });
  if (!tags || tags.length === 0) return null;
  return (
    <ul aria-label={`Tags of ${patientName}`} className="flex items-center gap-1">
      {tags.map((entry) => (
        <li
          key={entry.id}
          className="inline-flex h-5 max-w-28 items-center gap-0.5 rounded-full border border-line-strong bg-surface-raised pr-0.5 pl-1.5 text-[10.5px] text-fg-muted"
          style={entry.tag.colour ? { borderColor: entry.tag.colour } : undefined}
        >
          <span className="truncate" title={entry.tag.name}>
            {entry.tag.name}
          </span>
          <button
            type="button"
            aria-label={`Remove tag ${entry.tag.name} from ${patientName}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(entry)}
            className="flex size-3.5 shrink-0 items-center justify-center rounded-full text-fg-subtle hover:bg-surface-hover hover:text-fg disabled:opacity-50"
          >
            <X aria-hidden="true" className="size-2.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
