import { describe, expect, it, vi } from 'vitest';
import { besideFeatures, openViewerBeside, VIEWER_WINDOW_NAME, webViewerUrl } from './viewer-beside.ts';

const screen = { availWidth: 2560, availHeight: 1400, availLeft: 0, availTop: 25 };

describe('the viewer beside the editor', () => {
  it('takes the right half of the screen, at least 640 px wide', () => {
    expect(besideFeatures(screen)).toBe('popup,left=1280,top=25,width=1280,height=1400');
    expect(besideFeatures({ availWidth: 1000, availHeight: 700 })).toBe(
      'popup,left=360,top=0,width=640,height=700',
    );
    expect(besideFeatures({ availWidth: 600, availHeight: 700, availLeft: 1920 })).toBe(
      'popup,left=1920,top=0,width=600,height=700',
    );
  });

  it('opens web links only, resolving the built-in viewer’s paths against the page', () => {
    expect(webViewerUrl('/viewer/viewer?StudyInstanceUIDs=1.2', 'https://ris.example/worklist/x')).toBe(
      'https://ris.example/viewer/viewer?StudyInstanceUIDs=1.2',
    );
    expect(webViewerUrl('https://ohif.example/viewer', 'https://ris.example/')).toBe(
      'https://ohif.example/viewer',
    );
    expect(webViewerUrl('javascript:alert(1)', 'https://ris.example/')).toBeNull();
    expect(webViewerUrl('weasis://x', 'https://ris.example/')).toBeNull();
  });

  it('opens one named window, clears its opener, and says when the browser blocked it', () => {
    const opened = { opener: 'the RIS' as unknown };
    const open = vi.fn(() => opened as unknown as Window);
    const browser = { open, location: { href: 'https://ris.example/worklist/1' }, screen };
    expect(openViewerBeside('/viewer/viewer?StudyInstanceUIDs=1.2', browser)).toBe(true);
    expect(open).toHaveBeenCalledWith(
      'https://ris.example/viewer/viewer?StudyInstanceUIDs=1.2',
      VIEWER_WINDOW_NAME,
      'popup,left=1280,top=25,width=1280,height=1400',
    );
    expect(opened.opener).toBeNull();
    expect(openViewerBeside('javascript:alert(1)', browser)).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
    expect(openViewerBeside('/viewer/x', { ...browser, open: () => null })).toBe(false);
  });
});
