import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  FILTER_SETTINGS_COLUMNS,
  FIRST_WORKLIST_COLUMN,
  QUICK_ACTIONS,
  VIEWERS,
  VIEWER_LABELS,
  label,
  type TQuickAction,
  type TViewer,
  type TWorklistColumn,
} from '@ris/domain';
import { GripVertical, Lock } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Select } from '../../components/ui/select.tsx';
import { tableSettingsOf, useSettings } from '../../stores/settings-store.ts';
import { COLUMN_LABELS } from './worklist-columns.ts';

const LISTED = new Set<TWorklistColumn>(FILTER_SETTINGS_COLUMNS);

function ColumnRow({
  id,
  visible,
  onVisible,
}: {
  id: TWorklistColumn;
  visible: boolean;
  onVisible: (visible: boolean) => void;
}) {
  const pinned = id === FIRST_WORKLIST_COLUMN;
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: pinned,
  });
  const checkboxId = useId();
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-column={id}
      className={cn(
        'flex h-9 items-center gap-2 rounded-md border border-line bg-surface-raised px-2 text-[13px]',
        isDragging && 'relative z-10 border-accent shadow-lg',
      )}
    >
      {pinned ? (
        <span className="flex size-6 items-center justify-center text-fg-subtle" title="Always first">
          <Lock aria-hidden="true" className="size-3.5" />
        </span>
      ) : (
        <button
          type="button"
          className="flex size-6 cursor-grab touch-none items-center justify-center rounded text-fg-subtle hover:bg-surface-hover hover:text-fg active:cursor-grabbing"
          aria-label={`Move ${COLUMN_LABELS[id]}`}
          {...attributes}
          {...listeners}
        >
          <GripVertical aria-hidden="true" className="size-4" />
        </button>
      )}
      <input
        id={checkboxId}
        type="checkbox"
        checked={visible}
        disabled={pinned}
        onChange={(event) => onVisible(event.target.checked)}
        className="size-3.5 accent-(--color-accent)"
      />
      <label htmlFor={checkboxId} className="flex-1 cursor-pointer text-fg">
        {COLUMN_LABELS[id]}
      </label>
      {pinned ? <span className="text-[11px] text-fg-subtle">Always first</span> : null}
    </li>
  );
}

export interface ColumnSettingsDialogProps {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The worklist's settings for the signed-in user: column visibility and order (drag, or keyboard:
 * space then arrows), quick action and default viewer. patient_name stays first and actions last;
 * series_count is not listed (spec §2).
 */
export function ColumnSettingsDialog({ userId, open, onOpenChange }: ColumnSettingsDialogProps) {
  const settings = useSettings((state) => tableSettingsOf(state, userId));
  const setVisible = useSettings((state) => state.setWorklistColumnVisible);
  const moveTo = useSettings((state) => state.moveWorklistColumnTo);
  const reset = useSettings((state) => state.resetWorklistColumns);
  const setQuickAction = useSettings((state) => state.setQuickAction);
  const setDefaultViewer = useSettings((state) => state.setDefaultViewer);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const listed = settings.worklistColumns.filter((column) => LISTED.has(column.id));
  const quickName = useId();

  const onDragEnd = ({ active, over }: DragEndEvent): void => {
    if (!over || active.id === over.id) return;
    moveTo(userId, active.id as TWorklistColumn, over.id as TWorklistColumn);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Worklist settings"
      description="Saved to your profile: the same in every browser you sign in to."
      footer={
        <>
          <Button variant="ghost" onClick={() => reset(userId)}>
            Reset columns
          </Button>
          <Button onClick={() => onOpenChange(false)}>Done</Button>
        </>
      }
    >
      <section aria-labelledby={`${quickName}-columns`}>
        <h3
          id={`${quickName}-columns`}
          className="mb-2 text-xs font-semibold tracking-wide text-fg-muted uppercase"
        >
          Columns
        </h3>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={listed.map((column) => column.id)} strategy={verticalListSortingStrategy}>
            <ul className="flex flex-col gap-1" aria-label="Columns in order">
              {listed.map((column) => (
                <ColumnRow
                  key={column.id}
                  id={column.id}
                  visible={column.visible}
                  onVisible={(visible) => setVisible(userId, column.id, visible)}
                />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
        <p className="mt-2 text-[11px] text-fg-subtle">The actions column always stays last.</p>
      </section>
      <div className="mt-5 grid grid-cols-2 gap-4">
        <fieldset>
          <legend className="mb-2 text-xs font-semibold tracking-wide text-fg-muted uppercase">
            Quick action
          </legend>
          <div className="flex gap-3 text-[13px]">
            {QUICK_ACTIONS.map((action: TQuickAction) => (
              <label key={action} className="flex items-center gap-1.5">
                <input
                  type="radio"
                  name={quickName}
                  value={action}
                  checked={settings.quickAction === action}
                  onChange={() => setQuickAction(userId, action)}
                  className="accent-(--color-accent)"
                />
                {label(action)}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex flex-col gap-2">
          <span className="text-xs font-semibold tracking-wide text-fg-muted uppercase">Default viewer</span>
          <Select
            value={settings.defaultViewer}
            onChange={(event) => setDefaultViewer(userId, event.target.value as TViewer)}
          >
            {VIEWERS.map((viewer) => (
              <option key={viewer} value={viewer}>
                {VIEWER_LABELS[viewer]}
              </option>
            ))}
          </Select>
        </label>
      </div>
    </Dialog>
  );
}
