import { describe, expect, it } from 'vitest';
import { PRIORITY_TAGS } from '../studies/priority-tags.ts';
import {
  DEFAULT_TURNAROUND_TARGETS,
  PRIORITY_URGENCY_ORDER,
  isOverdue,
  priorityUrgencyRank,
  resolveTurnaroundTargets,
  turnaroundDueAt,
  ZTurnaroundTargets,
  ZUpdateTurnaroundTargetsBody,
} from './turnaround.ts';

const created = '2026-11-26T08:00:00.000Z';

describe('turnaround targets', () => {
  it('defaults every priority tag (EMERGENCY 1 h, URGENT 4 h, MLC 6 h, the rest 24 h)', () => {
    expect(ZTurnaroundTargets.parse(DEFAULT_TURNAROUND_TARGETS)).toEqual(DEFAULT_TURNAROUND_TARGETS);
    expect(DEFAULT_TURNAROUND_TARGETS.per_priority.EMERGENCY).toBe(60);
    expect(DEFAULT_TURNAROUND_TARGETS.per_priority.URGENT).toBe(240);
    expect(DEFAULT_TURNAROUND_TARGETS.per_priority.MLC).toBe(360);
    expect(DEFAULT_TURNAROUND_TARGETS.per_priority.ROUTINE).toBe(1440);
    expect(DEFAULT_TURNAROUND_TARGETS.default_minutes).toBe(1440);
    expect(Object.keys(DEFAULT_TURNAROUND_TARGETS.per_priority).sort()).toEqual([...PRIORITY_TAGS].sort());
    expect([...PRIORITY_URGENCY_ORDER].sort()).toEqual([...PRIORITY_TAGS].sort());
  });

  it('fills tags left out with their defaults and reads a bad stored value as the defaults', () => {
    const resolved = resolveTurnaroundTargets({ default_minutes: 600, per_priority: { URGENT: 120 } });
    expect(resolved.default_minutes).toBe(600);
    expect(resolved.per_priority.URGENT).toBe(120);
    expect(resolved.per_priority.EMERGENCY).toBe(60);
    expect(resolveTurnaroundTargets(null)).toEqual(DEFAULT_TURNAROUND_TARGETS);
    expect(resolveTurnaroundTargets({ default_minutes: 'x' })).toEqual(DEFAULT_TURNAROUND_TARGETS);
  });

  it('bounds targets to 1 minute … 30 days, whole minutes, known tags', () => {
    const bad = [
      { default_minutes: 0 },
      { default_minutes: 30 * 24 * 60 + 1 },
      { default_minutes: 1.5 },
      { default_minutes: 60, per_priority: { EMERGENCY: 0 } },
      { default_minutes: 60, per_priority: { STAT: 10 } },
    ];
    for (const body of bad)
      expect(ZUpdateTurnaroundTargetsBody.safeParse(body).success, JSON.stringify(body)).toBe(false);
    expect(ZUpdateTurnaroundTargetsBody.safeParse({ default_minutes: 1 }).success).toBe(true);
    expect(ZUpdateTurnaroundTargetsBody.safeParse({ default_minutes: 43_200 }).success).toBe(true);
  });

  it('is due at arrival + the priority target (untagged: default_minutes)', () => {
    const targets = DEFAULT_TURNAROUND_TARGETS;
    expect(turnaroundDueAt(created, 'EMERGENCY', targets).toISOString()).toBe('2026-11-26T09:00:00.000Z');
    expect(turnaroundDueAt(new Date(created), 'MLC', targets).toISOString()).toBe('2026-11-26T14:00:00.000Z');
    expect(turnaroundDueAt(created, null, targets).toISOString()).toBe('2026-11-27T08:00:00.000Z');
  });

  it('is overdue only after the due time and never when FINAL or DELETED', () => {
    const targets = DEFAULT_TURNAROUND_TARGETS;
    const item = { created_at: created, priority_tag: 'EMERGENCY' as const, status: 'ASSIGNED' as const };
    expect(isOverdue(item, targets, new Date('2026-11-26T09:00:00.000Z'))).toBe(false);
    expect(isOverdue(item, targets, new Date('2026-11-26T09:00:00.001Z'))).toBe(true);
    const late = new Date('2026-12-26T00:00:00.000Z');
    expect(isOverdue({ ...item, status: 'FINAL' }, targets, late)).toBe(false);
    expect(isOverdue({ ...item, status: 'DELETED' }, targets, late)).toBe(false);
  });

  it('ranks EMERGENCY, URGENT, MLC first and untagged last', () => {
    expect(priorityUrgencyRank('EMERGENCY')).toBe(0);
    expect(priorityUrgencyRank('URGENT')).toBe(1);
    expect(priorityUrgencyRank('MLC')).toBe(2);
    expect(priorityUrgencyRank(null)).toBe(PRIORITY_TAGS.length);
  });
});
