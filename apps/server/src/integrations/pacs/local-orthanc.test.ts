import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOrthanc, type TTestOrthanc } from '../../test/orthanc.ts';
import { uploadInstances } from './local-orthanc.ts';
import { syntheticStudy } from './synthetic-dicom.ts';

let orthanc: TTestOrthanc;
beforeAll(async () => {
  orthanc = await startTestOrthanc();
}, 40_000);
afterAll(async () => orthanc.close());

describe('a local Orthanc with synthetic studies', () => {
  it('refuses requests without its credentials', async () => {
    const response = await fetch(`${orthanc.restUrl}/system`);
    expect(response.status).toBe(401);
  });

  it('stores a synthetic study and answers it over QIDO-RS with its attributes and counts', async () => {
    const study = syntheticStudy({
      patientName: 'Synthetic^Test',
      patientId: 'SYN-1',
      accessionNumber: 'ACC-SYN-1',
      studyDescription: 'CT CHEST',
      modalities: ['CT', 'CT', 'SR'],
      instancesPerSeries: 2,
      institutionName: 'General Hospital',
    });
    await uploadInstances(orthanc, study.instances);
    const response = await fetch(
      `${orthanc.dicomwebUrl}/studies?StudyInstanceUID=${study.studyUid}&includefield=all`,
      { headers: { authorization: orthanc.authorization, accept: 'application/dicom+json' } },
    );
    expect(response.status).toBe(200);
    const [found] = (await response.json()) as Record<string, { Value?: unknown[] }>[];
    expect(found?.['0020000D']?.Value).toEqual([study.studyUid]);
    expect(found?.['00080050']?.Value).toEqual(['ACC-SYN-1']);
    expect(found?.['00201206']?.Value).toEqual([3]);
    expect(found?.['00201208']?.Value).toEqual([6]);
    expect(found?.['00080061']?.Value).toEqual(expect.arrayContaining(['CT', 'SR']));
  });
});
