import { describe, expect, it } from 'vitest';
import {
  REQUEST_STATUSES,
  RECORD_STATUSES,
  SCOPES,
  TEMPLATE_SCOPES,
  ZRecordStatus,
  ZRequestStatus,
  ZScope,
  ZTemplateScope,
  isSettledRequestStatus,
} from '../index.ts';
import { ZUuid } from './uuid.ts';

describe('shared enums', () => {
  it('lists the values of the specification in order', () => {
    expect(RECORD_STATUSES).toEqual(['ACTIVE', 'INACTIVE']);
    expect(SCOPES).toEqual(['ORGANISATION', 'USER']);
    expect(TEMPLATE_SCOPES).toEqual(['DEFAULT', 'USER', 'ORGANISATION']);
    expect(REQUEST_STATUSES).toEqual(['INITIATED', 'PENDING', 'FULFILLED', 'REJECTED']);
  });

  it('validates with zod and rejects other spellings', () => {
    expect(ZRecordStatus.parse('ACTIVE')).toBe('ACTIVE');
    expect(ZRecordStatus.safeParse('active').success).toBe(false);
    expect(ZScope.safeParse('DEFAULT').success).toBe(false);
    expect(ZTemplateScope.parse('DEFAULT')).toBe('DEFAULT');
    expect(ZRequestStatus.safeParse('DONE').success).toBe(false);
  });

  it('treats only FULFILLED and REJECTED as settled', () => {
    expect(REQUEST_STATUSES.filter(isSettledRequestStatus)).toEqual(['FULFILLED', 'REJECTED']);
  });
});

describe('ZUuid', () => {
  it('accepts UUIDs and rejects other strings', () => {
    expect(ZUuid.parse('3f2504e0-4f89-41d3-9a0c-0305e82c3301')).toBe('3f2504e0-4f89-41d3-9a0c-0305e82c3301');
    expect(ZUuid.safeParse('3f2504e0-4f89-41d3-9a0c-0305e82c330').success).toBe(false);
    expect(ZUuid.safeParse('not-a-uuid').success).toBe(false);
    expect(ZUuid.safeParse(42).success).toBe(false);
  });
});
