import { ZViewerLink, type TViewer, type TViewerLink } from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/**
 * GET /dicom/viewer: the link that opens a study in a viewer (409 when the server lacks a setting);
 * `localIp`: the facility's own image node, which this workstation was found to reach.
 */
export function fetchViewerLink(studyUid: string, viewer: TViewer, localIp?: string): Promise<TViewerLink> {
  return apiClient.get('/dicom/viewer', {
    query: { study_iuid: studyUid, viewer_type: viewer, ...(localIp ? { local_ip: localIp } : {}) },
    parse: (data) => ZViewerLink.parse(data),
  });
}

/** Schemes a viewer link may use: web viewers over http(s), desktop viewers through their own schemes. */
const DESKTOP_SCHEMES = new Set(['weasis', 'horos', 'radiant']);

export type TViewerOpening = { how: 'new-tab' | 'this-page'; url: string } | { how: 'refused'; url: string };

/**
 * How a viewer link is opened: a web viewer (http, https) in a new tab, without access to this page;
 * a desktop viewer's scheme by navigating this page, which hands the link to the installed program
 * and stays where it is. Anything else (javascript:, data:, …) is never opened.
 */
export function viewerOpening(url: string): TViewerOpening {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { how: 'new-tab', url };
  if (scheme && DESKTOP_SCHEMES.has(scheme)) return { how: 'this-page', url };
  return { how: 'refused', url };
}

type TBrowser = {
  open: (url: string, target: string, features: string) => unknown;
  location: { assign: (url: string) => void };
};

/** Opens a viewer link; false when the link was refused. */
export function openViewerLink(url: string, browser: TBrowser = window): boolean {
  const opening = viewerOpening(url);
  if (opening.how === 'new-tab') browser.open(opening.url, '_blank', 'noopener,noreferrer');
  else if (opening.how === 'this-page') browser.location.assign(opening.url);
  return opening.how !== 'refused';
}
