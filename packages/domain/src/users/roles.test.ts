import { describe, expect, it } from 'vitest';
import {
  RADIOLOGIST_USER_TYPES,
  REPORTER_SCHEME_ROLES,
  ROLES,
  STAFF_KINDS,
  ZRadiologistUserType,
  ZReporterSchemeRole,
  ZRole,
  ZStaffKind,
  isAdminRole,
  isReporter,
} from '../index.ts';

describe('roles', () => {
  it('lists both role schemes, user types and staff kinds', () => {
    expect(ROLES).toEqual([
      'ADMIN',
      'FACILITY_ADMIN',
      'RADIOLOGIST',
      'TRANSCRIPTIONIST',
      'REFERRING_PHYSICIAN',
    ]);
    expect(REPORTER_SCHEME_ROLES).toEqual(['ADMIN', 'REPORTER']);
    expect(RADIOLOGIST_USER_TYPES).toEqual(['RADIOLOGIST', 'REPORTER']);
    expect(STAFF_KINDS).toEqual(['MANAGER', 'TECHNICIAN']);
  });

  it('validates with zod', () => {
    expect(ZRole.parse('TRANSCRIPTIONIST')).toBe('TRANSCRIPTIONIST');
    expect(ZRole.safeParse('REPORTER').success).toBe(false);
    expect(ZReporterSchemeRole.parse('REPORTER')).toBe('REPORTER');
    expect(ZRadiologistUserType.safeParse('ADMIN').success).toBe(false);
    expect(ZStaffKind.safeParse('manager').success).toBe(false);
  });

  it('recognises a reporter in either scheme', () => {
    expect(isReporter('RADIOLOGIST', 'REPORTER')).toBe(true);
    expect(isReporter('REPORTER')).toBe(true);
    expect(isReporter('RADIOLOGIST', 'RADIOLOGIST')).toBe(false);
    expect(isReporter('RADIOLOGIST')).toBe(false);
    expect(isReporter('TRANSCRIPTIONIST', 'REPORTER')).toBe(false);
    expect(isReporter(undefined, 'REPORTER')).toBe(false);
  });

  it('recognises admins', () => {
    expect(isAdminRole('ADMIN')).toBe(true);
    expect(isAdminRole('FACILITY_ADMIN')).toBe(false);
    expect(isAdminRole(null)).toBe(false);
  });
});
