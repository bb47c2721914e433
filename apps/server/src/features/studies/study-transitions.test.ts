import { STUDY_STATUSES, type TStudyStatus } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { STUDY_TRANSITIONS, transition, type TStudyEvent } from './study-transitions.ts';

const allowed: [TStudyStatus, TStudyEvent, TStudyStatus][] = [
  ['ORDERED', 'activate', 'TO_READ'],
  ['TO_READ', 'assign', 'ASSIGNED'],
  ['ASSIGNED', 'unassign', 'TO_READ'],
  ['DRAFTED', 'unassign', 'TO_READ'],
  ['ASSIGNED', 'save-report', 'DRAFTED'],
  ['DRAFTED', 'submit', 'IN_REVIEW'],
  ['IN_REVIEW', 'return-to-draft', 'DRAFTED'],
  ['ASSIGNED', 'finalize', 'FINAL'],
  ['DRAFTED', 'finalize', 'FINAL'],
  ['IN_REVIEW', 'finalize', 'FINAL'],
  ['ORDERED', 'delete', 'DELETED'],
  ['TO_READ', 'delete', 'DELETED'],
  ['ASSIGNED', 'delete', 'DELETED'],
  ['DRAFTED', 'delete', 'DELETED'],
  ['IN_REVIEW', 'delete', 'DELETED'],
];

describe('study transitions', () => {
  it.each(allowed)('%s --%s--> %s', (from, event, to) => {
    expect(transition(from, event)).toEqual({ ok: true, from, to });
  });

  it('refuses every other move, with a reason', () => {
    const events = Object.keys(STUDY_TRANSITIONS) as TStudyEvent[];
    for (const from of STUDY_STATUSES) {
      for (const event of events) {
        if (allowed.some(([f, e]) => f === from && e === event)) continue;
        const result = transition(from, event);
        expect(result.ok, `${from} ${event}`).toBe(false);
        if (!result.ok) expect(result.reason).toMatch(/cannot be/);
      }
    }
  });

  it('never leaves FINAL or DELETED', () => {
    for (const event of Object.keys(STUDY_TRANSITIONS) as TStudyEvent[]) {
      expect(transition('FINAL', event).ok).toBe(false);
      expect(transition('DELETED', event).ok).toBe(false);
    }
  });

  it('unassigns only while no report content exists', () => {
    expect(transition('ASSIGNED', 'unassign', { hasReportContent: false }).ok).toBe(true);
    const refused = transition('DRAFTED', 'unassign', { hasReportContent: true });
    expect(refused).toMatchObject({ ok: false, reason: expect.stringMatching(/report content/) });
  });

  it('refuses assigning an order that was never activated', () => {
    expect(transition('ORDERED', 'assign')).toMatchObject({
      ok: false,
      reason: 'The study is ordered and cannot be assigned',
    });
  });
});
