import { VIEWERS } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { readsThroughProxy, viewerUrl, type TLinkContext } from './viewer-urls.ts';

const UID = '1.2.826.0.1.3680043.8.498.1';
const builtIn: TLinkContext = {
  ohifUrl: null,
  publicUrl: 'https://ris.example',
  pass: (kind) => `${kind}-pass`,
};
const external: TLinkContext = { ...builtIn, ohifUrl: 'https://viewer.example/ohif' };

describe('viewerUrl', () => {
  it('opens the built-in OHIF through /viewer/open with a ticket', () => {
    expect(viewerUrl('ohif', UID, builtIn)).toBe('https://ris.example/viewer/open?ticket=ticket-pass');
    expect(readsThroughProxy('ohif', builtIn)).toBe(true);
  });

  it('opens an external OHIF (VIEWER_OHIF_URL) at its study viewer route', () => {
    expect(viewerUrl('ohif', UID, external)).toBe(
      `https://viewer.example/ohif/viewer?StudyInstanceUIDs=${UID}`,
    );
    expect(readsThroughProxy('ohif', external)).toBe(false);
  });

  it('opens Weasis with the URL-encoded $dicom:rs command against the proxy, its pass in the path', () => {
    const url = viewerUrl('weasis', UID, builtIn);
    expect(url.startsWith('weasis://')).toBe(true);
    expect(decodeURIComponent(url.slice('weasis://'.length))).toBe(
      `$dicom:rs --url "https://ris.example/dicom-web/t/weasis-pass" -r "studyUID=${UID}"`,
    );
    expect(readsThroughProxy('weasis', external)).toBe(true);
  });

  it('opens Horos and RadiAnt through their URL schemes without the proxy', () => {
    expect(viewerUrl('horos', UID, builtIn)).toBe(`horos://?methodName=displayStudy&StudyInstanceUID=${UID}`);
    expect(viewerUrl('radiant', UID, builtIn)).toBe(`radiant://?n=pstv&v=0020000D&v=${UID}`);
    expect(readsThroughProxy('horos', builtIn)).toBe(false);
    expect(readsThroughProxy('radiant', builtIn)).toBe(false);
  });

  it('has a recipe for every viewer of the specification', () => {
    for (const viewer of VIEWERS) expect(viewerUrl(viewer, UID, builtIn)).toMatch(/^[a-z]+:\/\//);
  });
});
