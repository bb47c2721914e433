import { apiClient } from '../../api/client.ts';

/**
 * GET /worklist/statuses/{id} (server: features/worklist/commands/status-history.ts). Defined here
 * until the domain package carries the schema.
 */
export interface TStatusHistoryEntry {
  id: string;
  from_status: string | null;
  to_status: string;
  by_user_fk: string | null;
  by_user_display_name: string | null;
  comment: string | null;
  created_at: string;
}

export interface TStatusHistory {
  worklist_id: string;
  history: TStatusHistoryEntry[];
}

export function fetchStatusHistory(id: string, signal?: AbortSignal): Promise<TStatusHistory> {
  return apiClient.get(`/worklist/statuses/${encodeURIComponent(id)}`, { signal });
}
