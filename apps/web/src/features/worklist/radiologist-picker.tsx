import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { cn } from '../../components/ui/cn.ts';
import { worklistApi, worklistKeys } from './worklist-api.ts';

export interface RadiologistPickerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Facilities of the selected items: only radiologists allowed there are offered. */
  facilityIds: string[];
  count: number;
  pending: boolean;
  onAssign: (radiologistId: string) => void;
}

/**
 * Dialog to pick an active radiologist (GET /radiologist/active) for the selected studies. Offered
 * only to users who may assign anyone (capabilities.assign_anyone); a refusal shows the server's words.
 */
export function RadiologistPicker({
  open,
  onOpenChange,
  facilityIds,
  count,
  pending,
  onAssign,
}: RadiologistPickerProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const name = useId();
  const radiologists = useQuery({
    queryKey: worklistKeys.radiologists(search.trim(), facilityIds),
    queryFn: ({ signal }) => worklistApi.radiologists(search, facilityIds, signal),
    enabled: open,
  });
  const options = radiologists.data ?? [];
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setChosen(null);
        onOpenChange(next);
      }}
      title="Assign radiologist"
      description={`${count} ${count === 1 ? 'study' : 'studies'} selected`}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button disabled={!chosen || pending} onClick={() => chosen && onAssign(chosen)}>
            {pending ? <Spinner /> : null}
            Assign
          </Button>
        </>
      }
    >
      <TextField
        label="Search radiologists"
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        autoComplete="off"
      />
      <fieldset className="mt-3">
        <legend className="sr-only">Radiologist</legend>
        {radiologists.isPending ? (
          <p className="flex items-center gap-2 py-3 text-[13px] text-fg-muted">
            <Spinner /> Loading radiologists…
          </p>
        ) : radiologists.isError ? (
          <p role="alert" className="py-3 text-[13px] text-danger">
            {errorMessage(radiologists.error, 'Could not load the radiologists.')}
          </p>
        ) : options.length === 0 ? (
          <p className="py-3 text-[13px] text-fg-muted">No active radiologist matches.</p>
        ) : (
          <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
            {options.map((option) => (
              <li key={option.id}>
                <label
                  className={cn(
                    'flex cursor-pointer items-center gap-2.5 rounded-md border px-3 py-2 text-[13px]',
                    chosen === option.id
                      ? 'border-accent bg-accent-soft'
                      : 'border-line hover:bg-surface-hover',
                  )}
                >
                  <input
                    type="radio"
                    name={name}
                    value={option.id}
                    checked={chosen === option.id}
                    onChange={() => setChosen(option.id)}
                    className="accent-(--color-accent)"
                  />
                  {option.name}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
    </Dialog>
  );
}
