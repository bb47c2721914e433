import { describe, expect, it } from 'vitest';
import {
  MUTED_STATUS_TEXT_COLOUR,
  STATUS_GROUPS,
  STATUS_GROUP_LABELS,
  STUDY_STATUSES,
  ZStatusGroup,
  ZStudyStatus,
  groupOfStatus,
  isStudyStatus,
  statusTextColour,
  statusesOfGroup,
} from '../index.ts';

describe('study statuses', () => {
  it('lists the statuses and groups of the specification', () => {
    expect(STUDY_STATUSES).toEqual([
      'ORDERED',
      'TO_READ',
      'ASSIGNED',
      'IN_REVIEW',
      'DRAFTED',
      'FINAL',
      'DELETED',
    ]);
    expect(STATUS_GROUPS).toEqual(['ALL', 'ORDERED', 'ON_PROGRESS', 'COMPLETED']);
    expect(ZStudyStatus.safeParse('CANCELLED').success).toBe(false);
    expect(ZStatusGroup.parse('ON_PROGRESS')).toBe('ON_PROGRESS');
  });

  it('labels the groups', () => {
    expect(STATUS_GROUP_LABELS).toEqual({
      ALL: 'All',
      ORDERED: 'Ordered',
      ON_PROGRESS: 'In Progress',
      COMPLETED: 'Completed',
    });
  });

  it('lists the statuses of each group', () => {
    expect(statusesOfGroup('ORDERED')).toEqual(['ORDERED']);
    expect(statusesOfGroup('ON_PROGRESS')).toEqual(['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED']);
    expect(statusesOfGroup('COMPLETED')).toEqual(['FINAL']);
    expect(statusesOfGroup('ALL')).toEqual([
      'ORDERED',
      'TO_READ',
      'ASSIGNED',
      'IN_REVIEW',
      'DRAFTED',
      'FINAL',
    ]);
  });

  it('finds the group of each status, none for DELETED', () => {
    expect(groupOfStatus('ORDERED')).toBe('ORDERED');
    expect(groupOfStatus('TO_READ')).toBe('ON_PROGRESS');
    expect(groupOfStatus('ASSIGNED')).toBe('ON_PROGRESS');
    expect(groupOfStatus('IN_REVIEW')).toBe('ON_PROGRESS');
    expect(groupOfStatus('DRAFTED')).toBe('ON_PROGRESS');
    expect(groupOfStatus('FINAL')).toBe('COMPLETED');
    expect(groupOfStatus('DELETED')).toBeNull();
  });

  it('keeps groupOfStatus and statusesOfGroup consistent', () => {
    for (const status of STUDY_STATUSES) {
      const group = groupOfStatus(status);
      if (group) expect(statusesOfGroup(group)).toContain(status);
      expect(statusesOfGroup('ALL').includes(status)).toBe(group !== null);
    }
  });
});

describe('statusTextColour', () => {
  it('gives every status its own Tailwind text colour', () => {
    const colours = STUDY_STATUSES.map(statusTextColour);
    expect(new Set(colours).size).toBe(STUDY_STATUSES.length);
    for (const colour of colours) {
      expect(colour).toMatch(/^text-[a-z]+-\d{3}$/);
      expect(colour).not.toBe(MUTED_STATUS_TEXT_COLOUR);
    }
  });

  it('mutes unknown and missing statuses', () => {
    expect(statusTextColour('SOMETHING_ELSE')).toBe(MUTED_STATUS_TEXT_COLOUR);
    expect(statusTextColour('final')).toBe(MUTED_STATUS_TEXT_COLOUR);
    expect(statusTextColour('')).toBe(MUTED_STATUS_TEXT_COLOUR);
    expect(statusTextColour(null)).toBe(MUTED_STATUS_TEXT_COLOUR);
    expect(statusTextColour(undefined)).toBe(MUTED_STATUS_TEXT_COLOUR);
  });

  it('recognises statuses strictly', () => {
    expect(isStudyStatus('FINAL')).toBe(true);
    expect(isStudyStatus('toString')).toBe(false);
    expect(isStudyStatus(3)).toBe(false);
  });
});
