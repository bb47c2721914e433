import { describe, expect, it } from 'vitest';
import { buildItem } from '../../../test/worklist-items.ts';
import { transcriptionistToast } from './transcriptionist-toasts.ts';

const before = buildItem(1, { status: 'ASSIGNED', last_assigned_user_display_name: 'Dr Rao' });

describe('transcriptionist toasts', () => {
  it('tells when the assigned radiologist marks the report final', () => {
    expect(transcriptionistToast(before, { ...before, status: 'FINAL' })).toEqual({
      kind: 'success',
      message: 'Dr Rao marked the report of Patient 1 as final',
    });
  });

  it('tells for 10 s when the report is marked draft', () => {
    expect(transcriptionistToast(before, { ...before, status: 'DRAFTED' })).toMatchObject({
      message: 'Dr Rao marked the report of Patient 1 as draft',
      duration: 10_000,
    });
  });

  it('tells when collaboration is switched on or off', () => {
    const on = { ...before, collaboration_enabled: true };
    expect(transcriptionistToast(before, on)?.message).toBe('Collaboration enabled for Patient 1');
    expect(transcriptionistToast(on, before)?.message).toBe('Collaboration disabled for Patient 1');
  });

  it('stays quiet for other changes and for items not seen before', () => {
    expect(transcriptionistToast(before, { ...before, priority_tag: 'URGENT' })).toBeNull();
    expect(transcriptionistToast(undefined, { ...before, status: 'FINAL' })).toBeNull();
    expect(transcriptionistToast({ ...before, status: 'FINAL' }, { ...before, status: 'FINAL' })).toBeNull();
  });
});
