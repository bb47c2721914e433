import { describe, expect, it } from 'vitest';
import { openViewerLink, viewerOpening } from './viewer-link.ts';

function fakeBrowser() {
  const calls: string[] = [];
  return {
    calls,
    browser: {
      open: (url: string, target: string, features: string) =>
        calls.push(`open ${url} ${target} ${features}`),
      location: { assign: (url: string) => void calls.push(`assign ${url}`) },
    },
  };
}

describe('viewer links', () => {
  it('opens web viewers in a new tab without access to this page', () => {
    const { calls, browser } = fakeBrowser();
    const url = 'https://viewer.example/ohif/viewer?StudyInstanceUIDs=1.2.3';
    expect(openViewerLink(url, browser)).toBe(true);
    expect(calls).toEqual([`open ${url} _blank noopener,noreferrer`]);
    expect(viewerOpening('HTTP://viewer.example/x').how).toBe('new-tab');
  });

  it('hands desktop viewer schemes to the installed program by navigating this page', () => {
    for (const url of [
      'weasis://%24dicom%3Ars%20--url%20%22https%3A%2F%2Fpacs%22%20-r%20%22studyUID%3D1.2.3%22',
      'horos://?methodName=displayStudy&StudyInstanceUID=1.2.3',
      'radiant://?n=pstv&v=0020000D&v=1.2.3',
    ]) {
      const { calls, browser } = fakeBrowser();
      expect(openViewerLink(url, browser)).toBe(true);
      expect(calls).toEqual([`assign ${url}`]);
    }
  });

  it('never opens other schemes', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', '/relative', '']) {
      const { calls, browser } = fakeBrowser();
      expect(openViewerLink(url, browser), url).toBe(false);
      expect(calls).toEqual([]);
    }
  });
});
