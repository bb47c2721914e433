// splitAtDays: a range's whole UTC days come from the rollup; each partial day at an edge is either
// counted (the part in range, added) or summed whole less the part out of range, whichever spans less
// time up to now. Whatever it picks, the instants it covers must be exactly the range's.
import { describe, expect, it } from 'vitest';
import { splitAtDays } from './worklist-rollup.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso).getTime();

/** Whether the split covers instant `t` (rollup days plus edges added, less edges taken). */
function covers(split: NonNullable<ReturnType<typeof splitAtDays>>, t: number): number {
  const day = Math.floor(t / DAY) * DAY;
  const first = split.first === null ? -Infinity : at(`${split.first}T00:00:00Z`);
  const end = split.end === null ? Infinity : at(`${split.end}T00:00:00Z`);
  let n = day >= first && day < end ? 1 : 0;
  for (const { lower, upper, sign } of split.edges) {
    const above = lower.strict ? t > lower.at : t >= lower.at;
    const below = upper.inclusive ? t <= upper.at : t < upper.at;
    if (above && below) n += sign;
  }
  return n;
}

describe('splitAtDays', () => {
  const now = at('2024-05-10T18:00:00.000Z');
  const instants = (from: number, to: number) => {
    const points: number[] = [];
    for (let t = from - DAY - 2; t <= to + DAY + 2; t += 3_600_000) points.push(t - 1, t, t + 1);
    for (const edge of [from, to]) points.push(edge - 1, edge, edge + 1);
    return points;
  };
  const ranges = [
    // A week up to now (the preset): the last day less the hours after now.
    { from: '2024-05-03T18:00:00.000Z', to: '2024-05-10T18:00:00.000Z', inclusive: true },
    // Today up to now within one day: the day less the hours after now.
    { from: '2024-05-10T00:00:00.000Z', to: '2024-05-10T18:00:00.000Z', inclusive: true },
    // Early or late in a day, exclusive ends, a range in the past, one ending on a midnight.
    { from: '2024-05-01T23:30:00.000Z', to: '2024-05-04T00:30:00.000Z', inclusive: false },
    { from: '2024-05-01T00:30:00.000Z', to: '2024-05-04T23:30:00.000Z', inclusive: true },
    { from: '2024-05-02T05:00:00.000Z', to: '2024-05-02T06:00:00.000Z', inclusive: true },
    { from: '2024-05-02T01:00:00.000Z', to: '2024-05-02T23:00:00.000Z', inclusive: false },
    { from: '2024-05-02T00:00:00.000Z', to: '2024-05-04T00:00:00.000Z', inclusive: false },
    { from: '2024-05-02T00:00:00.000Z', to: '2024-05-04T00:00:00.000Z', inclusive: true },
  ];

  it('covers every instant of the range once and nothing else, in whichever form it picks', () => {
    for (const range of ranges) {
      const from = at(range.from);
      const to = at(range.to);
      const split = splitAtDays(
        { from: new Date(from), to: { at: new Date(to), inclusive: range.inclusive } },
        now,
      );
      if (!split) continue;
      for (const t of instants(from, to)) {
        const inRange = t >= from && (range.inclusive ? t <= to : t < to);
        expect({ range, t: new Date(t).toISOString(), n: covers(split, t) }).toEqual({
          range,
          t: new Date(t).toISOString(),
          n: inRange ? 1 : 0,
        });
      }
    }
  });

  it('counts nothing from studies up to now but what lies past now', () => {
    const week = splitAtDays(
      { from: new Date(at('2024-05-03T18:00:00.000Z')), to: { at: new Date(now), inclusive: true } },
      now,
    );
    expect(week?.end).toBe('2024-05-11');
    expect(week?.edges.map((edge) => edge.sign)).toEqual([1, -1]);
    const today = splitAtDays(
      { from: new Date(at('2024-05-10T00:00:00.000Z')), to: { at: new Date(now), inclusive: true } },
      now,
    );
    expect(today).toMatchObject({ first: '2024-05-10', end: '2024-05-11' });
    // An hour of a past day is counted from studies alone.
    const hour = splitAtDays(
      {
        from: new Date(at('2024-05-02T05:00:00.000Z')),
        to: { at: new Date(at('2024-05-02T06:00:00.000Z')), inclusive: true },
      },
      now,
    );
    expect(hour).toBeNull();
  });

  it('keeps open ends open', () => {
    const split = splitAtDays({ from: null, to: { at: new Date(now), inclusive: true } }, now);
    expect(split?.first).toBeNull();
    expect(splitAtDays({ from: null, to: null }, now)).toEqual({ first: null, end: null, edges: [] });
  });
});
