import { describe, expect, it } from 'vitest';
import { parseItemTags, parseRadiologists, parseTags } from './worklist-api.ts';

describe('worklist API answers', () => {
  it('names radiologists by display name, else first and last name, else e-mail', () => {
    expect(
      parseRadiologists([
        { id: 'r1', display_name: 'Dr Asha Rao', first_name: 'Asha', last_name: 'Rao', email: 'a@x' },
        { id: 'r2', display_name: '', first_name: 'Vikram', last_name: 'Sethi', email: 'v@x' },
        { id: 'r3', display_name: '', first_name: '', last_name: '', email: 'n@x' },
        { display_name: 'no id' },
      ]),
    ).toEqual([
      { id: 'r1', name: 'Dr Asha Rao' },
      { id: 'r2', name: 'Vikram Sethi' },
      { id: 'r3', name: 'n@x' },
    ]);
  });

  it('lists the tags and default tags once each', () => {
    expect(
      parseTags({
        tags: [{ id: 't1', name: 'Teaching', colour: '#aa00cc' }],
        default_tags: [
          { id: 't2', name: 'Review' },
          { id: 't1', name: 'Teaching' },
        ],
      }),
    ).toEqual([
      { id: 't1', name: 'Teaching', colour: '#aa00cc' },
      { id: 't2', name: 'Review', colour: null },
    ]);
    expect(parseTags(null)).toEqual([]);
    expect(parseTags([{ id: 't3', name: 'Odd', colour: 'red; background:url(x)' }])).toEqual([
      { id: 't3', name: 'Odd', colour: null },
    ]);
  });

  it('reads the tags put on items, dropping entries without an item or tag', () => {
    expect(
      parseItemTags({
        items: [
          { id: 'wt1', worklist_id: 'w1', tag: { id: 't1', name: 'Teaching', colour: null }, user_fk: 'u' },
          { id: 'wt2', worklist_id: '', tag: { id: 't1', name: 'Teaching' } },
          { id: 'wt3', worklist_id: 'w2', tag: null },
        ],
      }),
    ).toEqual([{ id: 'wt1', worklist_id: 'w1', tag: { id: 't1', name: 'Teaching', colour: null } }]);
  });
});
