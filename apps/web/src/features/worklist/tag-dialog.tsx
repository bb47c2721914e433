import { FALLBACK_ERROR_MESSAGES } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { worklistApi, worklistKeys, type TTagOption } from './worklist-api.ts';

/** Longest tag name the server accepts. */
const MAX_TAG_NAME_LENGTH = 60;

export interface TagDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  worklistIds: string[];
  /** Called after the tags were put on the items, with a message for the user. */
  onApplied: (message: string) => void;
}

function plural(count: number): string {
  return `${count} ${count === 1 ? 'study' : 'studies'}`;
}

/** The tags whose name contains the search (case-insensitive), in their order. */
export function filterTags(tags: readonly TTagOption[], search: string): TTagOption[] {
  const needle = search.trim().toLocaleLowerCase();
  return needle ? tags.filter((tag) => tag.name.toLocaleLowerCase().includes(needle)) : [...tags];
}

/** Whether `name` may become a new tag: not blank, not too long, no tag of that name yet. */
export function canCreateTag(tags: readonly TTagOption[], name: string): boolean {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_TAG_NAME_LENGTH) return false;
  const lower = trimmed.toLocaleLowerCase();
  return !tags.some((tag) => tag.name.toLocaleLowerCase() === lower);
}

/**
 * Tags the selected studies: pick one or more of the user's, organisation's and default tags, or
 * create a new one from the search text (POST /worklist/tag), then apply (POST
 * /worklist/worklist-tag/many).
 */
export function TagDialog({ open, onOpenChange, worklistIds, onApplied }: TagDialogProps) {
  const queryClient = useQueryClient();
  const userId = useAuth((state) => state.user?.id ?? '');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const tags = useQuery({
    queryKey: worklistKeys.tags(),
    queryFn: ({ signal }) => worklistApi.tags(signal),
    enabled: open,
  });
  const all = tags.data ?? [];
  const shown = filterTags(all, search);

  const create = useMutation({
    mutationFn: (name: string) => worklistApi.createTag(name, userId),
    onSuccess: (tag) => {
      queryClient.setQueryData<TTagOption[]>(worklistKeys.tags(), (list) => [...(list ?? []), tag]);
      void queryClient.invalidateQueries({ queryKey: worklistKeys.tags() });
      setChosen((ids) => [...ids, tag.id]);
      setSearch('');
      notify('success', `Created the tag ${tag.name}`);
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to create tag')),
  });

  const apply = useMutation({
    mutationFn: (tagIds: string[]) => worklistApi.addTags(worklistIds, tagIds),
    onSuccess: (_, tagIds) => {
      const names = tagIds.map((id) => all.find((tag) => tag.id === id)?.name ?? 'a tag');
      close(false);
      onApplied(`Tagged ${plural(worklistIds.length)} ${names.join(', ')}`);
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateWorklist)),
  });

  function close(next: boolean): void {
    if (!next) {
      setSearch('');
      setChosen([]);
    }
    onOpenChange(next);
  }

  const toggle = (id: string): void =>
    setChosen((ids) => (ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]));
  const newName = search.trim();
  const creatable = tags.isSuccess && canCreateTag(all, newName);

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Tag studies"
      description={`${plural(worklistIds.length)} selected`}
      footer={
        <>
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button disabled={chosen.length === 0 || apply.isPending} onClick={() => apply.mutate(chosen)}>
            {apply.isPending ? <Spinner /> : null}
            {chosen.length > 1 ? `Apply ${chosen.length} tags` : 'Apply tag'}
          </Button>
        </>
      }
    >
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (creatable && !create.isPending) create.mutate(newName);
        }}
      >
        <TextField
          label="Find or create a tag"
          type="search"
          className="flex-1"
          value={search}
          maxLength={MAX_TAG_NAME_LENGTH}
          onChange={(event) => setSearch(event.target.value)}
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" size="lg" disabled={!creatable || create.isPending}>
          {create.isPending ? <Spinner /> : <Plus aria-hidden="true" className="size-4" />}
          Create tag
        </Button>
      </form>
      <fieldset className="mt-3">
        <legend className="sr-only">Tags</legend>
        {tags.isPending ? (
          <p className="flex items-center gap-2 py-3 text-[13px] text-fg-muted">
            <Spinner /> Loading tags…
          </p>
        ) : tags.isError ? (
          <p className="py-3 text-[13px] text-danger">Could not load the tags.</p>
        ) : shown.length === 0 ? (
          <p className="py-3 text-[13px] text-fg-muted">
            {all.length === 0 ? 'No tags yet: type a name and create one.' : 'No tag matches.'}
          </p>
        ) : (
          <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
            {shown.map((tag) => {
              const checked = chosen.includes(tag.id);
              return (
                <li key={tag.id}>
                  <label
                    className={cn(
                      'flex cursor-pointer items-center gap-2.5 rounded-md border px-3 py-2 text-[13px]',
                      checked ? 'border-accent bg-accent-soft' : 'border-line hover:bg-surface-hover',
                    )}
                  >
                    <input
                      type="checkbox"
                      checked={checked}
                      onChange={() => toggle(tag.id)}
                      className="accent-(--color-accent)"
                    />
                    <span
                      aria-hidden="true"
                      className="size-2 rounded-full bg-fg-subtle"
                      style={tag.colour ? { backgroundColor: tag.colour } : undefined}
                    />
                    {tag.name}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
    </Dialog>
  );
}
