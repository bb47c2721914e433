import { describe, expect, it } from 'vitest';
import {
  ZPostPreferencesBody,
  ZPreferences,
  ZPreferencesPatch,
  ZPutUserPreferencesBody,
  defaultPreferences,
  repairPreferencesPatch,
} from '../index.ts';

function issues(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('ZPreferencesPatch', () => {
  it('accepts an empty document, a partial one and a complete one', () => {
    expect(ZPreferencesPatch.parse({})).toEqual({});
    expect(ZPreferencesPatch.parse({ page_sizes: { worklist: 25 } })).toEqual({
      page_sizes: { worklist: 25 },
    });
    expect(ZPreferencesPatch.parse(defaultPreferences())).toEqual(defaultPreferences());
  });

  it('refuses unknown fields, naming them, at every level', () => {
    const top = ZPutUserPreferencesBody.safeParse({ preferences: { colour: 'red' } });
    expect(issues(top)).toEqual(['preferences: "colour" is not a known field']);
    const nested = ZPreferencesPatch.safeParse({ page_sizes: { orders: 10 }, notifications: { sms: true } });
    expect(issues(nested)).toEqual([
      'page_sizes: "orders" is not a known field',
      'notifications: "sms" is not a known field',
    ]);
    expect(issues(ZPutUserPreferencesBody.safeParse({ preferences: {}, a: 1, b: 2 }))).toEqual([
      ': "a", "b" are not known fields',
    ]);
  });

  it('refuses bad values, naming the field', () => {
    const bad = ZPreferencesPatch.safeParse({
      theme: 'blue',
      default_viewer: 'osirix',
      page_sizes: { worklist: 0, reportFinder: 1000 },
      default_date_range: 'CUSTOM',
      worklist_columns: [
        { id: 'status', visible: false },
        { id: 'status', visible: true },
      ],
      default_worklist_filters: { statuses: ['LOST'], facility_ids: ['nope'] },
    });
    const fields = issues(bad).map((issue) => issue.split(':')[0]);
    expect(fields).toEqual([
      'worklist_columns',
      'default_viewer',
      'page_sizes.worklist',
      'page_sizes.reportFinder',
      'theme',
      'default_date_range',
      'default_worklist_filters.statuses.0',
      'default_worklist_filters.facility_ids.0',
    ]);
    expect(issues(bad)).toContain(
      'default_date_range: must be a preset (CUSTOM dates are chosen on the worklist)',
    );
    expect(issues(bad)).toContain('worklist_columns: each column may be listed only once');
  });
});

describe('default priority tags', () => {
  it('read a complete document written before them as no priority filter', () => {
    const { priority_tags: _added, ...older } = defaultPreferences().default_worklist_filters;
    const parsed = ZPreferences.parse({ ...defaultPreferences(), default_worklist_filters: older });
    expect(parsed.default_worklist_filters.priority_tags).toEqual([]);
    const extra = { ...older, colour: 'red' };
    expect(
      issues(ZPreferences.safeParse({ ...defaultPreferences(), default_worklist_filters: extra })),
    ).toEqual(['default_worklist_filters: "colour" is not a known field']);
  });

  it('stay absent from a patch that leaves them out (inherited), and are checked when given', () => {
    const patch = ZPreferencesPatch.parse({ default_worklist_filters: { modalities: ['CT'] } });
    expect(patch).toEqual({ default_worklist_filters: { modalities: ['CT'] } });
    const given = { default_worklist_filters: { priority_tags: ['URGENT', 'EMERGENCY'] } };
    expect(ZPreferencesPatch.parse(given)).toEqual(given);
    const bad = ZPreferencesPatch.safeParse({ default_worklist_filters: { priority_tags: ['NOPE'] } });
    expect(issues(bad).map((issue) => issue.split(':')[0])).toEqual([
      'default_worklist_filters.priority_tags.0',
    ]);
  });
});

describe('ZPostPreferencesBody', () => {
  it('names the scope, which must be ORGANISATION', () => {
    expect(ZPostPreferencesBody.parse({ scope: 'ORGANISATION', preferences: { theme: 'light' } })).toEqual({
      scope: 'ORGANISATION',
      preferences: { theme: 'light' },
    });
    for (const scope of ['USER', 'DEFAULT', undefined]) {
      const result = ZPostPreferencesBody.safeParse({ scope, preferences: {} });
      expect(issues(result)[0]).toMatch(/^scope: must be ORGANISATION/);
    }
  });
});

describe('repairPreferencesPatch', () => {
  it('keeps what still validates and drops the rest, key by key in object fields', () => {
    expect(
      repairPreferencesPatch({
        theme: 'light',
        default_viewer: 'retired-viewer',
        page_sizes: { worklist: 25, reportFinder: -1, legacy: 3 },
        notifications: { gone: true },
        unknown_field: 1,
      }),
    ).toEqual({ theme: 'light', page_sizes: { worklist: 25 } });
  });

  it('turns anything that is not an object into an empty document', () => {
    for (const stored of [null, 'x', 3, [], undefined]) expect(repairPreferencesPatch(stored)).toEqual({});
  });
});
