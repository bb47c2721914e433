import { archiveUrlProblem, type TFacilityDetails } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { organisationApi, organisationKeys } from './organisation-api.ts';

/**
 * The facility's own image node (GET /dicom/viewer local_ip): the root of the OHIF viewer on a node
 * of the facility's network; workstations that reach it open the facility's studies there.
 */
export function LocalNodePanel({ facility }: { facility: TFacilityDetails }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(facility.local_node_url ?? '');
  const [error, setError] = useState<string | null>(null);
  const next = url.trim() === '' ? null : url.trim().replace(/\/+$/, '');
  const save = useMutation({
    mutationFn: () => organisationApi.saveFacilityLocalNode(facility.id, next),
    onSuccess: (saved) => {
      queryClient.setQueryData(organisationKeys.facility(facility.id), saved);
      notify('success', saved.local_node_url ? 'Local image node saved' : 'Local image node removed');
    },
    onError: (failure) => notify('error', errorMessage(failure, 'Failed to save the local image node')),
  });
  return (
    <form
      className="flex flex-col gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problem = next === null ? null : archiveUrlProblem(next);
        setError(problem);
        if (!problem) save.mutate();
      }}
    >
      <TextField
        label={`Local image node of ${facility.name}`}
        value={url}
        placeholder="https://10.0.0.5:8443/ohif"
        error={error ?? undefined}
        hint="Its OHIF viewer on this facility's network. Workstations whose viewer agent reaches it open studies there; leave empty for none."
        onChange={(event) => setUrl(event.target.value)}
      />
      <div>
        <Button type="submit" disabled={next === (facility.local_node_url ?? null) || save.isPending}>
          Save local node
        </Button>
      </div>
    </form>
  );
}
