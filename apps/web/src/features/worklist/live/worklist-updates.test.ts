import { NO_WORKLIST_ITEM_ABILITIES } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { FACILITY_A, FACILITY_B, buildItem, buildPage } from '../../../test/worklist-items.ts';
import {
  applyItemUpdate,
  applyWorklistUpdate,
  changesAbilities,
  parseWorklistUpdate,
} from './worklist-updates.ts';

const MINE = new Set([FACILITY_A]);

describe('realtime worklist merge', () => {
  it('removes a deleted item and lowers the total', () => {
    const page = buildPage([buildItem(1), buildItem(2)], 10, 12);
    const next = applyWorklistUpdate(
      page,
      { action: 'delete', id: buildItem(1).id, facility_fk: FACILITY_A },
      MINE,
    );
    expect(next.items.map((item) => item.id)).toEqual([buildItem(2).id]);
    expect(next.total).toBe(11);
  });

  it('merges a changed item in place', () => {
    const page = buildPage([buildItem(1), buildItem(2), buildItem(3)]);
    const changed = buildItem(2, { status: 'ASSIGNED', last_assigned_user_display_name: 'Dr Rao' });
    const next = applyWorklistUpdate(page, { action: 'upsert', item: changed }, MINE);
    expect(next.items.map((item) => item.id)).toEqual(page.items.map((item) => item.id));
    expect(next.items[1]).toMatchObject({ status: 'ASSIGNED', last_assigned_user_display_name: 'Dr Rao' });
    expect(next.total).toBe(3);
  });

  it('adds an unknown item at the top, keeping the page size', () => {
    const page = buildPage([buildItem(1), buildItem(2)], 2, 5);
    const next = applyWorklistUpdate(page, { action: 'upsert', item: buildItem(9) }, MINE);
    expect(next.items.map((item) => item.patient_name)).toEqual(['Patient 9', 'Patient 1']);
    expect(next.total).toBe(6);
  });

  it('ignores items of facilities outside the user’s, and deletions of unknown items', () => {
    const page = buildPage([buildItem(1)]);
    const foreign = buildItem(1, { facility_fk: FACILITY_B, status: 'FINAL' });
    expect(applyWorklistUpdate(page, { action: 'upsert', item: foreign }, MINE)).toBe(page);
    expect(
      applyWorklistUpdate(page, { action: 'upsert', item: buildItem(5, { facility_fk: FACILITY_B }) }, MINE),
    ).toBe(page);
    expect(
      applyWorklistUpdate(page, { action: 'delete', id: buildItem(1).id, facility_fk: FACILITY_B }, MINE),
    ).toBe(page);
    expect(
      applyWorklistUpdate(page, { action: 'delete', id: buildItem(7).id, facility_fk: FACILITY_A }, MINE),
    ).toBe(page);
  });

  it('parses only well-formed updates', () => {
    expect(parseWorklistUpdate({ action: 'upsert', item: buildItem(1) })).toMatchObject({ action: 'upsert' });
    expect(parseWorklistUpdate({ action: 'delete', id: buildItem(1).id, facility_fk: FACILITY_A })).toEqual({
      action: 'delete',
      id: buildItem(1).id,
      facility_fk: FACILITY_A,
    });
    expect(parseWorklistUpdate({ action: 'upsert', item: { id: 'x' } })).toBeNull();
    expect(parseWorklistUpdate({ action: 'rename' })).toBeNull();
    expect(parseWorklistUpdate(null)).toBeNull();
  });

  it('updates or clears the single item of the reporting screen', () => {
    const item = buildItem(1);
    expect(applyItemUpdate(item, { action: 'upsert', item: buildItem(1, { status: 'FINAL' }) })?.status).toBe(
      'FINAL',
    );
    expect(applyItemUpdate(item, { action: 'upsert', item: buildItem(2, { status: 'FINAL' }) })).toBe(item);
    expect(applyItemUpdate(item, { action: 'delete', id: item.id, facility_fk: FACILITY_A })).toBeNull();
  });
});

describe('realtime updates and abilities', () => {
  const facts = (n: number, patch: Parameters<typeof buildItem>[1] = {}) => {
    const { abilities: _none, ...rest } = buildItem(n, patch);
    return rest;
  };
  const mine = { ...NO_WORKLIST_ITEM_ABILITIES, unassign: true, write_report: true };

  it('reads a message without abilities (one message for every listener) and keeps each user’s own', () => {
    const update = parseWorklistUpdate({ action: 'upsert', item: facts(1, { study: 'CT Chest' }) });
    expect(update).not.toBeNull();
    const page = buildPage([buildItem(1, { abilities: mine })]);
    const next = update ? applyWorklistUpdate(page, update, MINE) : page;
    expect(next.items[0]).toMatchObject({ study: 'CT Chest', abilities: mine });
  });

  it('gives a new item no abilities until the page is read again', () => {
    const next = applyWorklistUpdate(buildPage([]), { action: 'upsert', item: facts(9) }, MINE);
    expect(next.items[0]?.abilities).toEqual(NO_WORKLIST_ITEM_ABILITIES);
  });

  it('says when the facts the abilities depend on changed', () => {
    const current = buildItem(1, { status: 'ASSIGNED', abilities: mine });
    expect(
      changesAbilities(current, { action: 'upsert', item: facts(1, { status: 'ASSIGNED', study: 'x' }) }),
    ).toBe(false);
    expect(changesAbilities(current, { action: 'upsert', item: facts(1, { status: 'FINAL' }) })).toBe(true);
    expect(
      changesAbilities(current, {
        action: 'upsert',
        item: facts(1, { status: 'ASSIGNED', collaboration_enabled: true }),
      }),
    ).toBe(true);
  });
});
