import { VIEWERS } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { viewerUrl } from './viewer-urls.ts';

const UID = '1.2.826.0.1.3680043.8.498.1';
const configured = { ohifUrl: 'https://viewer.example/ohif', dicomwebUrl: 'https://pacs.example/dicom-web' };
const unconfigured = { ohifUrl: null, dicomwebUrl: null };

describe('viewerUrl', () => {
  it('opens OHIF at its study viewer route', () => {
    expect(viewerUrl('ohif', UID, configured)).toEqual({
      ok: true,
      url: `https://viewer.example/ohif/viewer?StudyInstanceUIDs=${UID}`,
    });
  });

  it('opens Weasis with the URL-encoded $dicom:rs command against the DICOMweb root', () => {
    const result = viewerUrl('weasis', UID, configured);
    expect(result).toEqual({
      ok: true,
      url:
        'weasis://%24dicom%3Ars%20--url%20%22https%3A%2F%2Fpacs.example%2Fdicom-web%22%20-r%20%22studyUID%3D' +
        `${UID}%22`,
    });
    if (!result.ok) return;
    expect(decodeURIComponent(result.url.slice('weasis://'.length))).toBe(
      `$dicom:rs --url "https://pacs.example/dicom-web" -r "studyUID=${UID}"`,
    );
  });

  it('opens Horos and RadiAnt through their URL schemes without any server setting', () => {
    expect(viewerUrl('horos', UID, unconfigured)).toEqual({
      ok: true,
      url: `horos://?methodName=displayStudy&StudyInstanceUID=${UID}`,
    });
    expect(viewerUrl('radiant', UID, unconfigured)).toEqual({
      ok: true,
      url: `radiant://?n=pstv&v=0020000D&v=${UID}`,
    });
  });

  it('names the variable to set when OHIF or Weasis is not configured', () => {
    expect(viewerUrl('ohif', UID, unconfigured)).toEqual({ ok: false, variable: 'VIEWER_OHIF_URL' });
    expect(viewerUrl('weasis', UID, unconfigured)).toEqual({ ok: false, variable: 'PACS_DICOMWEB_URL' });
  });

  it('has a recipe for every viewer of the specification', () => {
    for (const viewer of VIEWERS) expect(viewerUrl(viewer, UID, configured).ok).toBe(true);
  });
});
