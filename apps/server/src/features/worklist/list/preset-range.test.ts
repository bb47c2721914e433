// resolvePresetRange remembers each zone's day; it must answer exactly what resolveDateRange answers.
import { resolveDateRange } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { resolvePresetRange } from './preset-range.ts';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'America/Santiago',
  'Pacific/Apia',
];
const HOUR = 3_600_000;

describe('resolvePresetRange', () => {
  it('matches resolveDateRange for TODAY and YESTERDAY hour by hour across DST changes', () => {
    // Spring and autumn changes of Europe (March, October) and the US (March, November), and
    // Samoa's skipped 2011-12-30; each hour, then a minute before and after every midnight UTC.
    const starts = ['2024-03-29', '2024-10-25', '2024-11-01', '2011-12-28', '2024-09-05'];
    for (const timeZone of ZONES) {
      for (const start of starts) {
        const first = new Date(`${start}T00:00:00Z`).getTime();
        for (let at = first; at < first + 4 * 24 * HOUR; at += HOUR) {
          for (const now of [new Date(at), new Date(at - 60_000), new Date(at + 60_000)]) {
            for (const type of ['TODAY', 'YESTERDAY'] as const) {
              expect(
                resolvePresetRange(type, now, timeZone),
                `${type} ${timeZone} ${now.toISOString()}`,
              ).toEqual(resolveDateRange({ type, now, timeZone }));
            }
          }
        }
      }
    }
  });

  it('passes the duration presets through', () => {
    const now = new Date('2024-03-31T10:00:00Z');
    expect(resolvePresetRange('LAST_1_WEEK', now, 'UTC')).toEqual(
      resolveDateRange({ type: 'LAST_1_WEEK', now, timeZone: 'UTC' }),
    );
  });
});
