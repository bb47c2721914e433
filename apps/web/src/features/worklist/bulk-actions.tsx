import * as Menu from '@radix-ui/react-dropdown-menu';
import {
  FALLBACK_ERROR_MESSAGES,
  PRIORITY_TAGS,
  priorityTagLabel,
  type TPriorityTag,
  type TWorklistItem,
  type TWorklistItemAbilities,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, Flag, Tag, Trash2, UserMinus, UserPlus, X } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { bulkOutcome, plural, type TBulkOutcome } from './bulk-outcome.ts';
import { RadiologistPicker } from './radiologist-picker.tsx';
import { menuContentClassName, menuItemClassName } from './row-menu.tsx';
import { TagDialog } from './tag-dialog.tsx';
import { worklistApi, worklistKeys } from './worklist-api.ts';

export interface BulkActionsProps {
  selected: TWorklistItem[];
  onDone: () => void;
}

/**
 * Actions on the selected rows, only those the server's policies allow (the items' abilities, and the
 * user's capabilities for tags): assign a radiologist (or claim the studies), unassign, priority,
 * tags, delete. Nothing at all for a user who may take none of them (a referring physician).
 */
export function BulkActions({ selected, onDone }: BulkActionsProps) {
  const can = useAuth((state) => state.capabilities);
  const userId = useAuth((state) => state.user?.id ?? '');
  const queryClient = useQueryClient();
  const [picking, setPicking] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [tagsOpen, setTagsOpen] = useState(false);
  const ids = selected.map((item) => item.id);
  const facilityIds = [...new Set(selected.map((item) => item.facility_fk))];

  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
  };

  const run = useMutation({
    mutationFn: async (job: { action: () => Promise<TBulkOutcome>; fallback: string }) => job.action(),
    onSuccess: async ({ kind, message }) => {
      notify(kind, message);
      setPicking(false);
      setConfirmDelete(false);
      onDone();
      await refresh();
    },
    onError: (error, job) => notify('error', errorMessage(error, job.fallback)),
  });

  const update = (action: () => Promise<TBulkOutcome>): void =>
    run.mutate({ action, fallback: FALLBACK_ERROR_MESSAGES.updateWorklist });
  const assign = (radiologistId: string): void =>
    update(async () => bulkOutcome('Assigned', await worklistApi.assignRadiologist(ids, radiologistId)));
  const unassign = (): void =>
    update(async () => bulkOutcome('Unassigned', await worklistApi.unassignRadiologist(ids)));
  const setPriority = (tag: TPriorityTag): void =>
    update(async () =>
      bulkOutcome(`Marked ${priorityTagLabel(tag)}:`, await worklistApi.assignPriority(ids, tag)),
    );
  const clearPriority = (): void =>
    update(async () => bulkOutcome('Cleared the priority of', await worklistApi.unassignPriority(ids)));
  const remove = (): void =>
    run.mutate({
      fallback: FALLBACK_ERROR_MESSAGES.deleteWorklist,
      action: async () => {
        const failures: unknown[] = [];
        for (const id of ids) {
          await worklistApi.remove(id).catch((error: unknown) => failures.push(error));
        }
        if (failures.length === ids.length) throw failures[0];
        return failures.length > 0
          ? {
              kind: 'warning',
              message: `Deleted ${plural(ids.length - failures.length)}. ${failures.length} could not be deleted`,
            }
          : { kind: 'success', message: `Deleted ${plural(ids.length)}` };
      },
    });

  // An action is offered when the server allows it on at least one selected study (the others are
  // skipped, and the toast says why); tags are not about one study's state.
  const onSome = (ability: keyof TWorklistItemAbilities) => selected.some((item) => item.abilities[ability]);
  const offer = {
    assign: onSome('assign_anyone'),
    assignSelf: !onSome('assign_anyone') && onSome('assign_self'),
    unassign: onSome('unassign'),
    priority: onSome('set_priority'),
    tag: can.tag_studies,
    delete: onSome('delete'),
  };
  if (!Object.values(offer).some(Boolean)) return null;

  return (
    <div
      role="toolbar"
      aria-label="Actions on selected studies"
      className="flex flex-wrap items-center gap-1.5 rounded-lg border border-accent/40 bg-accent-soft px-3 py-1.5"
    >
      <span className="mr-2 text-[13px] font-medium text-fg" aria-live="polite">
        {plural(selected.length)} selected
      </span>
      {offer.assign ? (
        <Button variant="secondary" size="sm" onClick={() => setPicking(true)} disabled={run.isPending}>
          <UserPlus aria-hidden="true" className="size-3.5" /> Assign
        </Button>
      ) : null}
      {offer.assignSelf ? (
        <Button variant="secondary" size="sm" onClick={() => assign(userId)} disabled={run.isPending}>
          <UserPlus aria-hidden="true" className="size-3.5" /> Assign to me
        </Button>
      ) : null}
      {offer.unassign ? (
        <Button variant="secondary" size="sm" onClick={unassign} disabled={run.isPending}>
          <UserMinus aria-hidden="true" className="size-3.5" /> Unassign
        </Button>
      ) : null}
      {offer.priority ? (
        <Menu.Root>
          <Menu.Trigger asChild>
            <Button variant="secondary" size="sm" disabled={run.isPending}>
              <Flag aria-hidden="true" className="size-3.5" /> Priority
              <ChevronDown aria-hidden="true" className="size-3" />
            </Button>
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content align="start" sideOffset={4} className={menuContentClassName}>
              {PRIORITY_TAGS.map((tag) => (
                <Menu.Item key={tag} className={menuItemClassName} onSelect={() => setPriority(tag)}>
                  {priorityTagLabel(tag)}
                </Menu.Item>
              ))}
              <Menu.Separator className="my-1 h-px bg-line" />
              <Menu.Item className={menuItemClassName} onSelect={clearPriority}>
                Clear priority
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      ) : null}
      {offer.tag ? (
        <Button variant="secondary" size="sm" onClick={() => setTagsOpen(true)} disabled={run.isPending}>
          <Tag aria-hidden="true" className="size-3.5" /> Tag
        </Button>
      ) : null}
      {offer.delete ? (
        <Button
          variant="secondary"
          size="sm"
          className="text-danger"
          onClick={() => setConfirmDelete(true)}
          disabled={run.isPending}
        >
          <Trash2 aria-hidden="true" className="size-3.5" /> Delete
        </Button>
      ) : null}
      {run.isPending ? <Spinner className="ml-1 text-fg-muted" /> : null}
      <Button variant="ghost" size="sm" className="ml-auto" onClick={onDone}>
        <X aria-hidden="true" className="size-3.5" /> Clear selection
      </Button>

      <RadiologistPicker
        open={picking && offer.assign}
        onOpenChange={setPicking}
        facilityIds={facilityIds}
        count={ids.length}
        pending={run.isPending}
        onAssign={assign}
      />
      <TagDialog
        open={tagsOpen}
        onOpenChange={setTagsOpen}
        worklistIds={ids}
        onApplied={(message) => {
          notify('success', message);
          onDone();
          void refresh();
        }}
      />
      <Dialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${plural(ids.length)}?`}
        description="Deleted studies leave the worklist. Final studies cannot be deleted."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={run.isPending} onClick={remove}>
              Delete
            </Button>
          </>
        }
      >
        <ul className="flex flex-col gap-1 text-[13px] text-fg-muted">
          {selected.slice(0, 8).map((item) => (
            <li key={item.id}>
              {item.patient_name} · {item.study ?? item.modality ?? item.accession_number}
            </li>
          ))}
          {selected.length > 8 ? <li>and {selected.length - 8} more</li> : null}
        </ul>
      </Dialog>
    </div>
  );
}
