import { DEFAULT_REPORT_STYLE, SIGNATURE_PLACEMENTS, label } from '@ris/domain';
import { RotateCcw, Save } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { SelectField } from '../templates/form-fields.tsx';
import { draftOf, type TStyleDraft, type TStyleErrors, type TStyleNumberField } from './report-style.ts';

export interface ReportStyleFormProps {
  draft: TStyleDraft;
  errors: TStyleErrors;
  onChange: (draft: TStyleDraft) => void;
  onSubmit: () => void;
  saving: boolean;
  dirty: boolean;
}

/** Each field's width in a 12-column row: two, three or four fields side by side. */
type TSpan = 'half' | 'third' | 'quarter';
const SPANS: Record<TSpan, string> = {
  half: 'col-span-12 sm:col-span-6',
  third: 'col-span-12 sm:col-span-4',
  quarter: 'col-span-6 sm:col-span-3',
};

interface TGroup {
  legend: string;
  fields: readonly { field: TStyleNumberField; label: string; unit: string; step: string; span: TSpan }[];
}

const GROUPS: readonly TGroup[] = [
  {
    legend: 'Text',
    fields: [
      { field: 'font_size_pt', label: 'Font size', unit: 'pt', step: '0.5', span: 'half' },
      { field: 'line_height', label: 'Line height', unit: '× font size', step: '0.05', span: 'half' },
      { field: 'heading_sizes_pt.0', label: 'Heading 1', unit: 'pt', step: '0.5', span: 'third' },
      { field: 'heading_sizes_pt.1', label: 'Heading 2', unit: 'pt', step: '0.5', span: 'third' },
      { field: 'heading_sizes_pt.2', label: 'Heading 3', unit: 'pt', step: '0.5', span: 'third' },
    ],
  },
  {
    legend: 'Page',
    fields: [
      { field: 'header_height_mm', label: 'Header height', unit: 'mm', step: '1', span: 'half' },
      { field: 'footer_height_mm', label: 'Footer height', unit: 'mm', step: '1', span: 'half' },
      { field: 'margins_mm.top', label: 'Top margin', unit: 'mm', step: '1', span: 'quarter' },
      { field: 'margins_mm.bottom', label: 'Bottom margin', unit: 'mm', step: '1', span: 'quarter' },
      { field: 'margins_mm.left', label: 'Left margin', unit: 'mm', step: '1', span: 'quarter' },
      { field: 'margins_mm.right', label: 'Right margin', unit: 'mm', step: '1', span: 'quarter' },
    ],
  },
];

/**
 * The organisation's report layout (ZReportStyle): text sizes, page margins, the space kept for the
 * letterhead header and footer, where signatures go, whether the patient block shows. Controlled by
 * the page, so the preview beside it follows every keystroke.
 */
export function ReportStyleForm({ draft, errors, onChange, onSubmit, saving, dirty }: ReportStyleFormProps) {
  const patientBlockId = useId();
  const setNumber = (field: TStyleNumberField, value: string) =>
    onChange({ ...draft, numbers: { ...draft.numbers, [field]: value } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form aria-label="Report style" noValidate onSubmit={submit} className="flex flex-col gap-4">
      {GROUPS.map((group) => (
        <fieldset key={group.legend} className="grid grid-cols-12 gap-x-3 gap-y-3">
          <legend className="col-span-12 mb-2 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
            {group.legend}
          </legend>
          {group.fields.map(({ field, label: text, unit, step, span }) => (
            <TextField
              key={field}
              className={SPANS[span]}
              label={text}
              labelAside={<span className="text-[11px] text-fg-subtle">{unit}</span>}
              inputMode="decimal"
              type="number"
              step={step}
              value={draft.numbers[field]}
              error={errors[field]}
              onChange={(event) => setNumber(field, event.target.value)}
            />
          ))}
        </fieldset>
      ))}
      <div className="grid grid-cols-12 items-end gap-3">
        <SelectField
          className="col-span-12 sm:col-span-6"
          label="Signature placement"
          value={draft.signature_placement}
          onChange={(event) =>
            onChange({
              ...draft,
              signature_placement:
                SIGNATURE_PLACEMENTS.find((value) => value === event.target.value) ?? 'right',
            })
          }
        >
          {SIGNATURE_PLACEMENTS.map((placement) => (
            <option key={placement} value={placement}>
              {label(placement)}
            </option>
          ))}
        </SelectField>
        <label
          htmlFor={patientBlockId}
          className="col-span-12 flex h-9 items-center gap-2 text-[13px] text-fg sm:col-span-6"
        >
          <input
            id={patientBlockId}
            type="checkbox"
            checked={draft.show_patient_block}
            onChange={(event) => onChange({ ...draft, show_patient_block: event.target.checked })}
            className="size-3.5 accent-(--color-accent)"
          />
          Show the patient block
        </label>
      </div>
      <div className="flex justify-between gap-2">
        <Button variant="ghost" disabled={saving} onClick={() => onChange(draftOf(DEFAULT_REPORT_STYLE))}>
          <RotateCcw aria-hidden="true" className="size-3.5" /> Defaults
        </Button>
        <Button type="submit" disabled={saving || !dirty}>
          {saving ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
          Save style
        </Button>
      </div>
    </form>
  );
}
