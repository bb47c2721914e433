import * as Menu from '@radix-ui/react-dropdown-menu';
import type { TWorklistItem } from '@ris/domain';
import { Copy, EllipsisVertical, FilePenLine, Trash2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../stores/app-store.ts';
import { StudyImageMenuItems } from '../dicom/study-image-menu-items.tsx';

export const menuContentClassName =
  'z-50 min-w-44 rounded-md border border-line-strong bg-surface-raised p-1 text-[13px] shadow-xl';
export const menuItemClassName =
  'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-fg outline-none data-[highlighted]:bg-surface-hover data-[disabled]:cursor-default data-[disabled]:opacity-50';

export interface RowMenuProps {
  item: TWorklistItem;
  onOpen: (item: TWorklistItem) => void;
  onDelete: (item: TWorklistItem) => void;
}

/** The per-row menu: open, copy the accession number, delete (when the item's abilities allow it). */
export function RowMenu({ item, onOpen, onDelete }: RowMenuProps) {
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={`More actions for ${item.patient_name}`}
        >
          <EllipsisVertical aria-hidden="true" className="size-4" />
        </Button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={4} className={menuContentClassName}>
          <Menu.Item className={menuItemClassName} onSelect={() => onOpen(item)}>
            <FilePenLine aria-hidden="true" className="size-4 text-fg-subtle" /> Open report
          </Menu.Item>
          <Menu.Item
            className={menuItemClassName}
            onSelect={() => {
              void navigator.clipboard
                ?.writeText(item.accession_number)
                .then(() => notify('success', `Copied ${item.accession_number}`));
            }}
          >
            <Copy aria-hidden="true" className="size-4 text-fg-subtle" /> Copy accession number
          </Menu.Item>
          <StudyImageMenuItems item={item} itemClassName={menuItemClassName} />
          {item.abilities.delete ? (
            <>
              <Menu.Separator className="my-1 h-px bg-line" />
              <Menu.Item className={`${menuItemClassName} text-danger`} onSelect={() => onDelete(item)}>
                <Trash2 aria-hidden="true" className="size-4" /> Delete study
              </Menu.Item>
            </>
          ) : null}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
