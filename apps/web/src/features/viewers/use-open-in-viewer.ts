import { VIEWER_LABELS, type TViewer } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import { agentInstallHint, agentReaches, findLocalAgent, openWithAgent } from './local-agent.ts';
import { fetchViewerLink, openViewerLink } from './viewer-link.ts';

/**
 * Opens studies in a viewer. RadiAnt and Horos go through the workstation's viewer agent when it
 * runs (it downloads the study's zip and opens it); otherwise, and for OHIF and Weasis, the server's
 * link (GET /dicom/viewer) is opened, with a hint how to get the agent. A viewer the server is not
 * set up for (409), or any other failure, shows the server's message.
 */
export function useOpenInViewer(viewer: TViewer) {
  const name = VIEWER_LABELS[viewer];
  const mutation = useMutation({
    mutationFn: async (studyUid: string) => {
      if (viewer === 'radiant' || viewer === 'horos') {
        const agent = await findLocalAgent();
        if (agent) {
          await openWithAgent(agent, studyUid, viewer);
          return null;
        }
        notify('info', agentInstallHint(name));
      }
      const link = await fetchViewerLink(studyUid, viewer);
      // The study's facility has its own image node: open it there when this workstation reaches it.
      if (link.local_node) {
        const agent = await findLocalAgent();
        if (agent && (await agentReaches(agent, link.local_node)))
          return fetchViewerLink(studyUid, viewer, link.local_node.host);
      }
      return link;
    },
    onSuccess: (link) => {
      if (link && !openViewerLink(link.url)) notify('error', `The ${name} link could not be opened`);
    },
    onError: (error) => notify('error', errorMessage(error, `Failed to open the study in ${name}`)),
  });
  return {
    name,
    pending: mutation.isPending,
    open: (studyUid: string) => mutation.mutate(studyUid),
  };
}
