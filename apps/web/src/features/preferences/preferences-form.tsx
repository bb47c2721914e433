import {
  DATE_RANGE_LABELS,
  DATE_RANGE_TYPES,
  MODALITIES,
  PRIORITY_TAGS,
  QUICK_ACTIONS,
  SESSION_PAGE_SIZES,
  SORT_ORDERS,
  STATUS_GROUPS,
  STATUS_GROUP_LABELS,
  THEMES,
  VIEWERS,
  VIEWER_LABELS,
  WORKLIST_SORT_FIELDS,
  isDateRangePreset,
  label,
  type TDateRangePreset,
  type TModality,
  type TPriorityTag,
  type TSortOrder,
  type TStatusGroup,
  type TViewer,
  type TWorklistSortField,
  priorityTagLabel,
} from '@ris/domain';
import { useId, type ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Select } from '../../components/ui/select.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import {
  settingsStore,
  tableSettingsOf,
  useSettings,
  type TPageSizeKey,
} from '../../stores/settings-store.ts';

/** Page sizes offered for each list (the current one is always offered too). */
export const PAGE_SIZE_CHOICES: Readonly<Record<TPageSizeKey, readonly number[]>> = {
  worklist: [10, 25, 50, 100],
  reportFinder: [10, 20, 25, 50, 100],
};

const PAGE_SIZE_LABELS: Record<TPageSizeKey, string> = {
  worklist: 'Worklist',
  reportFinder: 'Report finder',
};
const SORT_ORDER_LABELS: Record<TSortOrder, string> = { desc: 'Newest first', asc: 'Oldest first' };
const DATE_RANGE_PRESETS = DATE_RANGE_TYPES.filter(isDateRangePreset);
const legendClass = 'mb-2 text-xs font-semibold tracking-wide text-fg-muted uppercase';

function Group({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <fieldset className={cn('min-w-0', className)}>
      <legend className={legendClass}>{title}</legend>
      {children}
    </fieldset>
  );
}

function Field({ text, children }: { text: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-[13px] text-fg">
      <span className="text-fg-muted">{text}</span>
      {children}
    </label>
  );
}

function Choice({
  name,
  checked,
  onChange,
  children,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-center gap-1.5 text-[13px] text-fg">
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        className="accent-(--color-accent)"
      />
      {children}
    </label>
  );
}

/** The current worklist filters become the defaults a new session starts with. */
function copyCurrentFiltersToDefaults(): void {
  const {
    worklistFilters: filters,
    worklistGroup,
    setDefaultWorklistFilters,
    setDefaultDateRange,
  } = settingsStore.getState();
  const sortBy = (WORKLIST_SORT_FIELDS as readonly string[]).includes(filters.sort_by)
    ? (filters.sort_by as TWorklistSortField)
    : undefined;
  setDefaultWorklistFilters({
    status_group: worklistGroup,
    statuses: [...filters.statuses],
    modalities: [...filters.modalities],
    priority_tags: [...filters.priority_tags],
    facility_ids: [...filters.facility_ids],
    sort_order: filters.sort_order,
    ...(sortBy ? { sort_by: sortBy } : {}),
  });
  if (isDateRangePreset(filters.date_range_type)) setDefaultDateRange(filters.date_range_type);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export interface PreferencesFormProps {
  /** The signed-in user (the preferences written back are theirs). */
  userId: string;
  className?: string;
}

/**
 * The signed-in user's preferences: theme, default viewer and quick action, page sizes, the date
 * range and filters a new worklist session starts with, and notification choices. Each change
 * applies at once and is saved to the user's profile (features/preferences sync), so it follows
 * them to any browser. Worklist columns are arranged with the worklist's Columns button.
 */
export function PreferencesForm({ userId, className }: PreferencesFormProps) {
  const id = useId();
  const theme = useSettings((state) => state.theme);
  const table = useSettings((state) => tableSettingsOf(state, userId));
  const pageSizes = useSettings((state) => state.pageSizes);
  const defaultDateRange = useSettings((state) => state.defaultDateRange);
  const defaults = useSettings((state) => state.defaultWorklistFilters);
  const notifications = useSettings((state) => state.notifications);
  const actions = settingsStore.getState();

  const toggleModality = (modality: TModality, on: boolean): void => {
    const rest = defaults.modalities.filter((item) => item !== modality);
    actions.setDefaultWorklistFilters({ modalities: on ? [...rest, modality] : rest });
  };
  const togglePriority = (tag: TPriorityTag, on: boolean): void => {
    const rest = defaults.priority_tags.filter((item) => item !== tag);
    actions.setDefaultWorklistFilters({ priority_tags: on ? [...rest, tag] : rest });
  };

  return (
    <div className={cn('flex flex-col gap-6', className)}>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Group title="Theme">
          <div className="flex gap-4">
            {THEMES.map((value) => (
              <Choice
                key={value}
                name={`${id}-theme`}
                checked={theme === value}
                onChange={() => actions.setTheme(value)}
              >
                {label(value)}
              </Choice>
            ))}
          </div>
        </Group>
        <Group title="Quick action">
          <div className="flex gap-4">
            {QUICK_ACTIONS.map((value) => (
              <Choice
                key={value}
                name={`${id}-quick`}
                checked={table.quickAction === value}
                onChange={() => actions.setQuickAction(userId, value)}
              >
                {label(value)}
              </Choice>
            ))}
          </div>
        </Group>
        <Field text="Default viewer">
          <Select
            value={table.defaultViewer}
            onChange={(event) => actions.setDefaultViewer(userId, event.target.value as TViewer)}
          >
            {VIEWERS.map((viewer) => (
              <option key={viewer} value={viewer}>
                {VIEWER_LABELS[viewer]}
              </option>
            ))}
          </Select>
        </Field>
        <div className="grid grid-cols-2 gap-3">
          {(Object.keys(SESSION_PAGE_SIZES) as TPageSizeKey[]).map((key) => (
            <Field key={key} text={`${PAGE_SIZE_LABELS[key]} page size`}>
              <Select
                value={pageSizes[key]}
                onChange={(event) => actions.setPageSize(key, Number(event.target.value))}
              >
                {[...new Set([...PAGE_SIZE_CHOICES[key], pageSizes[key]])]
                  .sort((a, b) => a - b)
                  .map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
              </Select>
            </Field>
          ))}
        </div>
      </div>

      <Group title="A new worklist session starts with">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field text="Date range">
            <Select
              value={defaultDateRange}
              onChange={(event) => actions.setDefaultDateRange(event.target.value as TDateRangePreset)}
            >
              {DATE_RANGE_PRESETS.map((range) => (
                <option key={range} value={range}>
                  {DATE_RANGE_LABELS[range]}
                </option>
              ))}
            </Select>
          </Field>
          <Field text="Status tab">
            <Select
              value={defaults.status_group}
              onChange={(event) =>
                actions.setDefaultWorklistFilters({ status_group: event.target.value as TStatusGroup })
              }
            >
              {STATUS_GROUPS.map((group) => (
                <option key={group} value={group}>
                  {STATUS_GROUP_LABELS[group]}
                </option>
              ))}
            </Select>
          </Field>
          <Field text="Order">
            <Select
              value={defaults.sort_order}
              onChange={(event) =>
                actions.setDefaultWorklistFilters({ sort_order: event.target.value as TSortOrder })
              }
            >
              {SORT_ORDERS.map((order) => (
                <option key={order} value={order}>
                  {SORT_ORDER_LABELS[order]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-[13px]">
          <span className="text-fg-muted">Modalities</span>
          {MODALITIES.map((modality) => (
            <label key={modality} className="flex items-center gap-1.5 text-fg">
              <input
                type="checkbox"
                checked={defaults.modalities.includes(modality)}
                onChange={(event) => toggleModality(modality, event.target.checked)}
                className="size-3.5 accent-(--color-accent)"
              />
              {modality}
            </label>
          ))}
          <span className="text-[11px] text-fg-subtle">(none: all)</span>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-[13px]">
          <span className="text-fg-muted">Priorities</span>
          {PRIORITY_TAGS.map((tag) => (
            <label key={tag} className="flex items-center gap-1.5 text-fg">
              <input
                type="checkbox"
                checked={defaults.priority_tags.includes(tag)}
                onChange={(event) => togglePriority(tag, event.target.checked)}
                className="size-3.5 accent-(--color-accent)"
              />
              {priorityTagLabel(tag)}
            </label>
          ))}
          <span className="text-[11px] text-fg-subtle">(none: all)</span>
        </div>
        <div className="mt-3 flex items-center gap-3">
          <Button variant="secondary" size="sm" onClick={copyCurrentFiltersToDefaults}>
            Use my current worklist filters
          </Button>
          {defaults.statuses.length + defaults.facility_ids.length > 0 ? (
            <span className="text-[11px] text-fg-subtle">
              Also {plural(defaults.statuses.length, 'status', 'statuses')} and{' '}
              {plural(defaults.facility_ids.length, 'facility', 'facilities')}.
            </span>
          ) : null}
        </div>
      </Group>

      <Group title="Notifications">
        <Switch
          checked={notifications.status_toasts}
          onCheckedChange={(status_toasts) => actions.setNotificationChoices({ status_toasts })}
          className="flex items-center gap-3 text-left text-[13px] text-fg"
        >
          <span className="flex-1">
            Report and collaboration updates on the worklist
            <span className="block text-[11px] text-fg-subtle">
              A transcriptionist is told when a report is marked draft or final, or collaboration changes.
            </span>
          </span>
        </Switch>
      </Group>

      <p className="text-[11px] text-fg-subtle">
        Saved to your profile as you change them, so they follow you to any browser. Worklist columns are
        arranged with the Columns button on the worklist.
      </p>
    </div>
  );
}
