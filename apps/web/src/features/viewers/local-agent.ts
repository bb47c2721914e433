import {
  LOCAL_VIEWER_PORT,
  REACHABILITY_CHECK_TIMEOUT_MS,
  ZDicomZipUrl,
  type TDicomZipUrl,
} from '@ris/domain';
import { z } from 'zod';
import { apiClient } from '../../api/client.ts';

/** The workstation's ris-viewer-agent (spec §7: a local viewer server on port 8843). */
export const LOCAL_AGENT_URL = `http://127.0.0.1:${LOCAL_VIEWER_PORT}`;
/** Where the agent is downloaded from this RIS (the server serves its single file). */
export const AGENT_DOWNLOAD_PATH = '/downloads/ris-viewer-agent.js';

const ZAgentHello = z.object({ name: z.literal('ris-viewer-agent'), token: z.string().min(16) });
export type TLocalAgent = { token: string };

/** GET /dicom/get-dicom-zip-url: a signed, short-lived link to the study's zip. */
export function fetchStudyZipUrl(studyUid: string): Promise<TDicomZipUrl> {
  return apiClient.get('/dicom/get-dicom-zip-url', {
    query: { study_uid: studyUid },
    parse: (data) => ZDicomZipUrl.parse(data),
  });
}

/** The agent if it runs on this workstation and answers this RIS within 1 s, else null. */
export async function findLocalAgent(fetcher: typeof fetch = fetch): Promise<TLocalAgent | null> {
  try {
    const response = await fetcher(`${LOCAL_AGENT_URL}/`, { signal: AbortSignal.timeout(1_000) });
    if (!response.ok) return null;
    const hello = ZAgentHello.safeParse(await response.json());
    return hello.success ? { token: hello.data.token } : null;
  } catch {
    return null;
  }
}

/**
 * Whether this workstation reaches a host's port within 1 s (spec §7's reachability check), asked
 * of the agent: the page itself may not connect to other hosts (its Content-Security-Policy).
 */
export async function agentReaches(
  agent: TLocalAgent,
  node: { host: string; port: number },
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  try {
    const query = new URLSearchParams({ host: node.host, port: String(node.port) });
    const response = await fetcher(`${LOCAL_AGENT_URL}/reach?${query.toString()}`, {
      headers: { authorization: `Bearer ${agent.token}` },
      signal: AbortSignal.timeout(REACHABILITY_CHECK_TIMEOUT_MS + 500),
    });
    const body = (await response.json()) as { reachable?: unknown };
    return response.ok && body.reachable === true;
  } catch {
    return false;
  }
}

/** Has the agent download the study's zip (a signed link of this RIS) and open it in the viewer. */
export async function openWithAgent(
  agent: TLocalAgent,
  studyUid: string,
  viewer: 'radiant' | 'horos',
  fetcher: typeof fetch = fetch,
): Promise<void> {
  const link = await fetchStudyZipUrl(studyUid);
  const response = await fetcher(`${LOCAL_AGENT_URL}/open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      zip_url: new URL(link.url, window.location.origin).href,
      viewer,
      study_uid: studyUid,
    }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `The viewer agent answered ${response.status}`);
  }
}

/** How to get the agent, for the message shown when it is not running. */
export function agentInstallHint(viewerName: string): string {
  return `To open studies in ${viewerName} from here, run the viewer agent on this computer: download ${window.location.origin}${AGENT_DOWNLOAD_PATH} and run \`node ris-viewer-agent.js --ris ${window.location.origin}\` (Node.js 20 or later).`;
}
