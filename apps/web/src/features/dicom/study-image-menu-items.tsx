import * as Menu from '@radix-ui/react-dropdown-menu';
import type { TWorklistItem } from '@ris/domain';
import { Download, ServerOff } from 'lucide-react';
import { archiveDeleteRequest } from './archive-delete-request.ts';

export interface StudyImageMenuItemsProps {
  item: TWorklistItem;
  /** The row menu's item style. */
  itemClassName: string;
}

/**
 * The study images entries of a worklist row's menu: "Download images" (the study's zip) and, for
 * those the server lets delete the item (organisation admins), "Delete from archive…" (asks first:
 * ArchiveDeleteHost). Both need the study's DICOM UID.
 */
export function StudyImageMenuItems({ item, itemClassName }: StudyImageMenuItemsProps) {
  const studyUid = item.study_uid;
  if (!studyUid) return null;
  return (
    <>
      <Menu.Item
        className={itemClassName}
        onSelect={() =>
          // Loaded at the first download: the worklist does not carry it.
          void import('./download-study-images.ts').then((m) =>
            m.downloadStudyImages(studyUid, item.patient_name),
          )
        }
      >
        <Download aria-hidden="true" className="size-4 text-fg-subtle" /> Download images
      </Menu.Item>
      {item.abilities.delete ? (
        <Menu.Item className={`${itemClassName} text-danger`} onSelect={() => archiveDeleteRequest.ask(item)}>
          <ServerOff aria-hidden="true" className="size-4" /> Delete from archive…
        </Menu.Item>
      ) : null}
    </>
  );
}
