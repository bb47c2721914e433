import { describe, expect, it } from 'vitest';
import { parseDicomWebRead } from './dicom-web-paths.ts';

const S = '1.2.840.1';
const SE = '1.2.840.2';
const I = '1.2.840.3';

describe('parseDicomWebRead', () => {
  it('lets through the reads of one study, as JSON or streamed', () => {
    const cases: Array<[string, 'json' | 'binary', string]> = [
      [`/studies?StudyInstanceUID=${S}&includefield=all`, 'json', '/studies'],
      [`/studies/${S}`, 'binary', `/studies/${S}`],
      [`/studies/${S}/metadata`, 'json', `/studies/${S}/metadata`],
      [`/studies/${S}/series`, 'json', `/studies/${S}/series`],
      [`/studies/${S}/instances`, 'json', `/studies/${S}/instances`],
      [`/studies/${S}/series/${SE}/metadata`, 'json', `/studies/${S}/series/${SE}/metadata`],
      [`/studies/${S}/series/${SE}/instances`, 'json', `/studies/${S}/series/${SE}/instances`],
      [`/studies/${S}/series/${SE}/instances/${I}`, 'binary', `/studies/${S}/series/${SE}/instances/${I}`],
      [
        `/studies/${S}/series/${SE}/instances/${I}/metadata`,
        'json',
        `/studies/${S}/series/${SE}/instances/${I}/metadata`,
      ],
      [
        `/studies/${S}/series/${SE}/instances/${I}/frames/1,2,3`,
        'binary',
        `/studies/${S}/series/${SE}/instances/${I}/frames/1,2,3`,
      ],
      [
        `/studies/${S}/series/${SE}/instances/${I}/frames/1/rendered`,
        'binary',
        `/studies/${S}/series/${SE}/instances/${I}/frames/1/rendered`,
      ],
      [`/studies/${S}/series/${SE}/thumbnail`, 'binary', `/studies/${S}/series/${SE}/thumbnail`],
      [
        `/studies/${S}/series/${SE}/instances/${I}/bulk/7fe00010`,
        'binary',
        `/studies/${S}/series/${SE}/instances/${I}/bulk/7fe00010`,
      ],
    ];
    for (const [url, kind, archivePath] of cases) {
      const parsed = parseDicomWebRead(url);
      expect(parsed, url).toMatchObject({ ok: true, read: { kind, archivePath, studyUid: S, pass: null } });
    }
  });

  it('reads the Weasis pass in /t/<pass>/', () => {
    expect(parseDicomWebRead(`/t/abc.def/studies/${S}/series`)).toMatchObject({
      ok: true,
      read: { pass: 'abc.def', studyUid: S, archivePath: `/studies/${S}/series` },
    });
  });

  it('refuses what is not a read of one study', () => {
    const cases: Array<[string, number]> = [
      ['/studies', 400],
      ['/studies?PatientID=1', 400],
      [`/studies?StudyInstanceUID=${S}&StudyInstanceUID=${S}`, 400],
      [`/studies?studyinstanceuid=${S}&0020000D=${S}`, 400],
      [`/studies?StudyInstanceUID=${S}\\`, 400],
      [`/studies/${S}/series?StudyInstanceUID=1.2`, 400],
      [`/studies/${S}/series?a%20b=1`, 400],
      [`/studies/${S}/series?includefield=${'x'.repeat(2000)}`, 400],
      [`/studies/${S}/../1.2/metadata`, 400],
      [`/studies/${S}/%2e%2e/metadata`, 400],
      [`/studies/${S}%2F1.2/metadata`, 400],
      [`/studies/0x1/metadata`, 400],
      [`/studies/1.2.3./metadata`, 400],
      [`/studies/${S}/series/x/metadata`, 400],
      [`/studies/${S}/series/${SE}/instances/${I}/frames/0`, 404],
      [`/studies/${S}/series/${SE}/instances/${I}/bulk/../../x`, 400],
      [`/studies/${S}/series/${SE}/instances/${I}/bulk/zz`, 404],
      [`/studies/${S}/delete`, 404],
      ['/patients', 404],
      ['/t//studies', 400],
      ['', 404],
    ];
    for (const [url, status] of cases)
      expect(parseDicomWebRead(url), url).toMatchObject({ ok: false, status });
  });
});
