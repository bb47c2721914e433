import { describe, expect, it } from 'vitest';
import { archiveHostAllowed } from './allowed-hosts.ts';

describe('archiveHostAllowed (PACS_ALLOWED_HOSTS)', () => {
  it('allows every host without a list', () => {
    expect(archiveHostAllowed('http://127.0.0.1:8042/dicom-web', null)).toBe(true);
  });

  it('allows exact hosts and names under a wildcard, nothing else', () => {
    const allowed = ['pacs.example', '*.hospital.example', '10.0.0.5'];
    expect(archiveHostAllowed('https://pacs.example/dicom-web', allowed)).toBe(true);
    expect(archiveHostAllowed('https://PACS.example:8443/x', allowed)).toBe(true);
    expect(archiveHostAllowed('https://orthanc.hospital.example/dicom-web', allowed)).toBe(true);
    expect(archiveHostAllowed('http://10.0.0.5:8042', allowed)).toBe(true);
    expect(archiveHostAllowed('https://hospital.example/dicom-web', allowed)).toBe(false);
    expect(archiveHostAllowed('https://evilhospital.example/dicom-web', allowed)).toBe(false);
    expect(archiveHostAllowed('http://127.0.0.1:5432/', allowed)).toBe(false);
    expect(archiveHostAllowed('http://169.254.169.254/latest', allowed)).toBe(false);
    expect(archiveHostAllowed('not a url', allowed)).toBe(false);
  });
});
