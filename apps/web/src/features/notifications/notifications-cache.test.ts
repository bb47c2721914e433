import type { TNotification, TNotificationList } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { markReadLocally, parseLiveNotification, prependNotification } from './notifications-cache.ts';

const note = (id: string, is_read = false): TNotification => ({
  id,
  type: 'worklist-assigned',
  title: `Title ${id}`,
  body: null,
  data: null,
  is_read,
  created_at: '2025-01-01T10:00:00.000Z',
});

const list = (items: TNotification[], unread: number, limit = 3): TNotificationList => ({
  items,
  total: items.length,
  unread_count: unread,
  limit,
  offset: 0,
  next_offset: null,
  previous_offset: null,
});

describe('notification cache', () => {
  it('reads the notification of a user-notification message, unread unless it says otherwise', () => {
    const id = '3f0b0a7e-8c1d-4c53-9f8e-2b8f7f0c1a11';
    expect(
      parseLiveNotification({
        notification: { ...note(id), is_read: undefined, data: { worklist_id: 'w1' } },
      }),
    ).toEqual({ ...note(id), data: { worklist_id: 'w1' } });
    expect(parseLiveNotification({ notification: { id } })).toBeNull();
    expect(parseLiveNotification(null)).toBeNull();
    expect(parseLiveNotification({ notification: { ...note(id), data: 'junk' } })?.data).toBeNull();
  });

  it('prepends a new notification, keeps the page size and bumps the counts once', () => {
    const before = list([note('a'), note('b', true), note('c')], 2);
    const after = prependNotification(before, note('d'));
    expect(after.items.map((item) => item.id)).toEqual(['d', 'a', 'b']);
    expect(after).toMatchObject({ total: 4, unread_count: 3 });
    expect(prependNotification(after, note('d'))).toBe(after);
    expect(prependNotification(before, note('e', true))).toMatchObject({ total: 4, unread_count: 2 });
  });

  it('marks the given notifications read locally, or all of them', () => {
    const before = list([note('a'), note('b', true), note('c')], 5);
    const one = markReadLocally(before, ['a', 'b']);
    expect(one.items.map((item) => item.is_read)).toEqual([true, true, false]);
    expect(one.unread_count).toBe(4);
    expect(before.items[0]?.is_read).toBe(false);
    const all = markReadLocally(before, 'all');
    expect(all.items.every((item) => item.is_read)).toBe(true);
    expect(all.unread_count).toBe(0);
  });
});
