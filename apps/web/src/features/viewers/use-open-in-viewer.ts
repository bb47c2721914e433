import { VIEWER_LABELS, type TViewer } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import { fetchViewerLink, openViewerLink } from './viewer-link.ts';

/**
 * Opens studies in a viewer: asks the server for the link (GET /dicom/viewer), then opens it. A
 * viewer the server is not set up for (409), or any other failure, shows the server's message.
 */
export function useOpenInViewer(viewer: TViewer) {
  const name = VIEWER_LABELS[viewer];
  const mutation = useMutation({
    mutationFn: (studyUid: string) => fetchViewerLink(studyUid, viewer),
    onSuccess: (link) => {
      if (!openViewerLink(link.url)) notify('error', `The ${name} link could not be opened`);
    },
    onError: (error) => notify('error', errorMessage(error, `Failed to open the study in ${name}`)),
  });
  return {
    name,
    pending: mutation.isPending,
    open: (studyUid: string) => mutation.mutate(studyUid),
  };
}
