import { describe, expect, it } from 'vitest';
import {
  archiveSettingsProblems,
  archiveUrlProblem,
  ZArchiveUrl,
  ZCreateArchiveBody,
  ZUpdateArchiveBody,
  type TArchiveSettings,
} from './archive.schemas.ts';

const FACILITY = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

describe('archive URLs', () => {
  it('accepts http(s) roots and drops trailing slashes', () => {
    expect(ZArchiveUrl.parse(' http://127.0.0.1:8042/dicom-web/ ')).toBe('http://127.0.0.1:8042/dicom-web');
    expect(ZArchiveUrl.parse('https://pacs.example.org')).toBe('https://pacs.example.org');
  });

  it('refuses other schemes, credentials in the URL, queries and text that is no URL', () => {
    expect(archiveUrlProblem('ftp://pacs.example.org')).toMatch(/http/);
    expect(archiveUrlProblem('javascript:alert(1)')).toMatch(/http/);
    expect(archiveUrlProblem('pacs.example.org')).toMatch(/http/);
    expect(archiveUrlProblem('http://ris:secret@pacs.example.org')).toMatch(/user name or password/);
    expect(archiveUrlProblem('http://ris@pacs.example.org')).toMatch(/user name or password/);
    expect(archiveUrlProblem('http://pacs.example.org/dicom-web?x=1')).toMatch(/query/);
    expect(ZArchiveUrl.safeParse('http://a:b@pacs.example.org').success).toBe(false);
    expect(ZArchiveUrl.safeParse('').success).toBe(false);
  });
});

describe('archive bodies', () => {
  it('fills the defaults of a new archive', () => {
    expect(
      ZCreateArchiveBody.parse({ name: ' Main ', kind: 'dicomweb', dicomweb_url: 'http://pacs/dicom-web' }),
    ).toEqual({
      name: 'Main',
      kind: 'dicomweb',
      dicomweb_url: 'http://pacs/dicom-web',
      auth_kind: 'none',
      facilities: [],
      enabled: true,
      poll_interval_seconds: 10,
    });
  });

  it('bounds the name, the poll interval and refuses a facility listed twice', () => {
    const base = { kind: 'dicomweb', dicomweb_url: 'http://pacs/dicom-web' };
    expect(ZCreateArchiveBody.safeParse({ ...base, name: '' }).success).toBe(false);
    expect(ZCreateArchiveBody.safeParse({ ...base, name: 'x'.repeat(121) }).success).toBe(false);
    expect(ZCreateArchiveBody.safeParse({ ...base, name: 'A', poll_interval_seconds: 0 }).success).toBe(
      false,
    );
    expect(ZCreateArchiveBody.safeParse({ ...base, name: 'A', poll_interval_seconds: 3601 }).success).toBe(
      false,
    );
    expect(
      ZCreateArchiveBody.safeParse({
        ...base,
        name: 'A',
        facilities: [{ facility_id: FACILITY }, { facility_id: FACILITY }],
      }).success,
    ).toBe(false);
  });

  it('leaves out of an update what is not given (an omitted secret is kept)', () => {
    expect(ZUpdateArchiveBody.parse({ enabled: false })).toEqual({ enabled: false });
    expect(ZUpdateArchiveBody.parse({ secret: '' })).toEqual({ secret: '' });
  });
});

describe('archiveSettingsProblems', () => {
  const settings: TArchiveSettings = {
    kind: 'dicomweb',
    orthanc_url: null,
    auth_kind: 'none',
    username: null,
    has_secret: false,
    facility_ids: [FACILITY],
    default_facility_id: FACILITY,
  };
  const fields = (input: Partial<TArchiveSettings>) =>
    archiveSettingsProblems({ ...settings, ...input }).map((problem) => problem.field);

  it('accepts consistent settings', () => {
    expect(fields({})).toEqual([]);
    expect(fields({ kind: 'orthanc', orthanc_url: 'http://o' })).toEqual([]);
    expect(fields({ auth_kind: 'basic', username: 'ris', has_secret: true })).toEqual([]);
    expect(fields({ auth_kind: 'bearer', has_secret: true })).toEqual([]);
  });

  it('names each field a rule between fields refuses', () => {
    expect(fields({ kind: 'orthanc' })).toEqual(['orthanc_url']);
    expect(fields({ auth_kind: 'basic', has_secret: true })).toEqual(['username']);
    expect(fields({ auth_kind: 'basic', username: 'ris' })).toEqual(['secret']);
    expect(fields({ auth_kind: 'bearer' })).toEqual(['secret']);
    expect(fields({ default_facility_id: OTHER })).toEqual(['default_facility_id']);
  });
});
