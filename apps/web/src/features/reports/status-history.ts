import { ZStatusHistory, type TStatusHistory } from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/** GET /worklist/statuses/{id}: the study's status changes, oldest first. */
export function fetchStatusHistory(id: string, signal?: AbortSignal): Promise<TStatusHistory> {
  return apiClient.get(`/worklist/statuses/${encodeURIComponent(id)}`, {
    signal,
    parse: (data) => ZStatusHistory.parse(data),
  });
}
