import { describe, expect, it } from 'vitest';
import { DomainEvents } from './domain-events.ts';

describe('DomainEvents', () => {
  it('delivers to every listener, and a failing listener neither throws nor stops the others', () => {
    const events = new DomainEvents();
    const seen: string[] = [];
    const errors: unknown[] = [];
    events.onListenerError((error) => errors.push(error));
    events.on('worklist.item.deleted', () => {
      throw new Error('socket gone');
    });
    const off = events.on('worklist.item.deleted', (event) => seen.push(event.id));
    expect(() =>
      events.emit('worklist.item.deleted', { organisationId: 'o', id: 's1', facilityId: 'f' }),
    ).not.toThrow();
    off();
    events.emit('worklist.item.deleted', { organisationId: 'o', id: 's2', facilityId: 'f' });
    expect(seen).toEqual(['s1']);
    expect(errors).toHaveLength(2);
  });
});
