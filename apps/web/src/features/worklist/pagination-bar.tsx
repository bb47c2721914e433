import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { TPagination } from '@ris/domain';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/select.tsx';

export interface PaginationBarProps {
  /** total_capped: the total is a lower bound (the report finder counts up to a cap): "1,000+". */
  page: TPagination & { items: unknown[]; total_capped?: boolean };
  pageSize: number;
  sizes?: readonly number[];
  onPageSize?: (size: number) => void;
  onOffset: (offset: number) => void;
  label: string;
}

/** '1–10 of 240' ('of 1,000+' when capped), page size (remembered for the session), previous and next by the server's offsets. */
export function PaginationBar({ page, pageSize, sizes, onPageSize, onOffset, label }: PaginationBarProps) {
  const first = page.items.length === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.items.length;
  const options = sizes ? [...new Set([...sizes, pageSize])].sort((a, b) => a - b) : [];
  return (
    <nav
      aria-label={`${label} pages`}
      className="flex items-center justify-between gap-3 text-[13px] text-fg-muted"
    >
      <p aria-live="polite" className="tabular-nums">
        {first}–{last} of {page.total.toLocaleString('en-US')}
        {page.total_capped ? '+' : ''}
      </p>
      <div className="flex items-center gap-2">
        {onPageSize ? (
          <label className="flex items-center gap-2">
            Rows per page
            <Select value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
              {options.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </Select>
          </label>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          aria-label="Previous page"
          disabled={page.previous_offset === null}
          onClick={() => page.previous_offset !== null && onOffset(page.previous_offset)}
        >
          <ChevronLeft aria-hidden="true" className="size-4" />
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-label="Next page"
          disabled={page.next_offset === null}
          onClick={() => page.next_offset !== null && onOffset(page.next_offset)}
        >
          <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </nav>
  );
}
