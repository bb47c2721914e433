import {
  DEFAULT_TURNAROUND_TARGETS,
  PRIORITY_URGENCY_ORDER,
  type TPriorityTag,
  type TTurnaroundTargets,
  type TUpdateTurnaroundTargetsBody,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { formatDuration } from '../../components/format-duration.ts';
import { useFormDraft, type TFieldErrors } from '../../components/hooks/use-form-draft.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import {
  LOAD_TARGETS_FAILED,
  SAVE_TARGETS_FAILED,
  turnaroundTargetKeys,
  turnaroundTargetsApi,
  useTurnaroundTargetsQuery,
} from '../../api/turnaround-targets.ts';
import { homeKeys } from '../home/home-api.ts';
import { priorityText } from '../home/home-figures.ts';

/** The form's fields: the untagged target, then one per priority tag (named as the server names them). */
type TTargetField = 'default_minutes' | TPriorityTag;
const FIELDS: readonly TTargetField[] = ['default_minutes', ...PRIORITY_URGENCY_ORDER];
type TTargetsDraft = Record<TTargetField, string>;

function draftOf(targets: TTurnaroundTargets): TTargetsDraft {
  const draft = { default_minutes: String(targets.default_minutes) } as TTargetsDraft;
  for (const tag of PRIORITY_URGENCY_ORDER) draft[tag] = String(targets.per_priority[tag]);
  return draft;
}

function fieldLabel(field: TTargetField): string {
  return field === 'default_minutes' ? 'Untagged' : priorityText(field);
}

/** Only what cannot be sent as a number is refused here; ranges are the server's rule and message. */
function checkDraft(draft: TTargetsDraft): TFieldErrors<TTargetField> {
  const errors: TFieldErrors<TTargetField> = {};
  for (const field of FIELDS) {
    if (!/^\s*\d+\s*$/.test(draft[field])) errors[field] = 'Enter a whole number of minutes';
  }
  return errors;
}

function bodyOf(draft: TTargetsDraft): TUpdateTurnaroundTargetsBody {
  const perPriority: Partial<Record<TPriorityTag, number>> = {};
  for (const tag of PRIORITY_URGENCY_ORDER) perPriority[tag] = Number(draft[tag]);
  return { default_minutes: Number(draft.default_minutes), per_priority: perPriority };
}

/** What a whole-number draft value reads as ("= 4 h"), to check a figure at a glance. */
function hintOf(value: string): string | undefined {
  return /^\s*\d+\s*$/.test(value) && Number(value) > 0 ? `= ${formatDuration(Number(value))}` : undefined;
}

function TargetsForm({ targets, isDefault }: { targets: TTurnaroundTargets; isDefault: boolean }) {
  const queryClient = useQueryClient();
  const { draft, setDraft, errors, setErrors, set, refuse, refusedByServer } = useFormDraft<
    TTargetsDraft,
    TTargetField
  >(() => draftOf(targets), FIELDS);

  const save = useMutation({
    mutationFn: () => turnaroundTargetsApi.save(bodyOf(draft)),
    onSuccess: async (saved) => {
      queryClient.setQueryData(turnaroundTargetKeys.all, saved);
      setDraft(draftOf(saved.targets));
      notify('success', 'Turnaround targets saved');
      await queryClient.invalidateQueries({ queryKey: homeKeys.all });
    },
    onError: (error) => refusedByServer(error, SAVE_TARGETS_FAILED),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!refuse(checkDraft(draft))) return;
    save.mutate();
  };
  const pending = save.isPending;
  const dirty = FIELDS.some((field) => draft[field].trim() !== draftOf(targets)[field]);

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-label="Turnaround targets">
      <p className="text-[13px] text-fg-muted">
        Minutes from a study’s arrival to its final report. A study past its target shows a clock on the
        worklist, and its radiologist and the administrators are notified once.
        {isDefault ? ' These are the defaults: nothing has been set yet.' : ''}
      </p>
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-5">
        {FIELDS.map((field) => (
          <TextField
            key={field}
            label={fieldLabel(field)}
            value={draft[field]}
            error={errors[field]}
            hint={hintOf(draft[field])}
            disabled={pending}
            inputMode="numeric"
            autoComplete="off"
            onChange={(event) => set(field)(event.target.value)}
          />
        ))}
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={pending || !dirty}>
          {pending ? <Spinner /> : null}
          Save targets
        </Button>
        <Button
          type="button"
          variant="ghost"
          disabled={pending}
          onClick={() => {
            setDraft(draftOf(DEFAULT_TURNAROUND_TARGETS));
            setErrors({});
          }}
        >
          Use the defaults
        </Button>
      </div>
    </form>
  );
}

function TargetsList({ targets, isDefault }: { targets: TTurnaroundTargets; isDefault: boolean }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-[13px] text-fg-muted">
        Minutes from a study’s arrival to its final report, set by the organisation’s administrators.
        {isDefault ? ' These are the defaults.' : ''}
      </p>
      <dl aria-label="Turnaround targets" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5">
        {FIELDS.map((field) => {
          const minutes = field === 'default_minutes' ? targets.default_minutes : targets.per_priority[field];
          return (
            <div key={field} className="rounded-md border border-line bg-surface-raised px-3 py-2">
              <dt className="text-xs text-fg-muted">{fieldLabel(field)}</dt>
              <dd className="text-sm font-semibold text-fg tabular-nums">{formatDuration(minutes)}</dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

/**
 * The organisation's turnaround targets per priority (issue 16): administrators edit them, with the
 * server's validation shown on each field; facility administrators read them.
 */
export function TurnaroundTargetsPanel({ canEdit }: { canEdit: boolean }) {
  const query = useTurnaroundTargetsQuery();
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading the turnaround targets…
      </p>
    );
  }
  if (query.isError) {
    return <p className="text-[13px] text-danger">{errorMessage(query.error, LOAD_TARGETS_FAILED)}</p>;
  }
  const { targets, is_default: isDefault } = query.data;
  return canEdit ? (
    <TargetsForm targets={targets} isDefault={isDefault} />
  ) : (
    <TargetsList targets={targets} isDefault={isDefault} />
  );
}
