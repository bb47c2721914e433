import { describe, expect, it } from 'vitest';
import { hasUnsavedChanges, saveStateDetail, saveStateOf, type TSyncFacts } from './save-state.ts';

const base: TSyncFacts = {
  status: 'connecting',
  synced: false,
  unsyncedChanges: 0,
  everSynced: false,
  denied: null,
};

function facts(patch: Partial<TSyncFacts>): TSyncFacts {
  return { ...base, ...patch };
}

describe('save state', () => {
  it('is connecting until the first sync, even once the socket is open', () => {
    expect(saveStateOf(base)).toBe('connecting');
    expect(saveStateOf(facts({ status: 'connected', unsyncedChanges: 1 }))).toBe('connecting');
  });

  it('is saved only when connected, synced and every change acknowledged', () => {
    expect(saveStateOf(facts({ status: 'connected', synced: true, everSynced: true }))).toBe('saved');
    expect(
      saveStateOf(facts({ status: 'connected', synced: true, everSynced: true, unsyncedChanges: 2 })),
    ).toBe('saving');
  });

  it('is saving while a reconnection syncs again', () => {
    expect(saveStateOf(facts({ status: 'connected', synced: false, everSynced: true }))).toBe('saving');
  });

  it('is offline once disconnected after a sync, or with local changes; the detail says they are kept', () => {
    const offline = facts({ status: 'disconnected', everSynced: true, unsyncedChanges: 3 });
    expect(saveStateOf(offline)).toBe('offline');
    expect(saveStateDetail('offline', offline)).toMatch(/kept in this tab/);
    expect(saveStateOf(facts({ status: 'connecting', everSynced: true }))).toBe('offline');
    expect(saveStateOf(facts({ status: 'disconnected', unsyncedChanges: 1 }))).toBe('offline');
    expect(saveStateDetail('offline', facts({ status: 'disconnected', everSynced: true }))).toBe(
      'Offline: reconnecting',
    );
  });

  it('says the server refused, whatever the socket does', () => {
    const denied = facts({ status: 'connected', synced: true, denied: 'You may not open this report' });
    expect(saveStateOf(denied)).toBe('denied');
    expect(saveStateDetail('denied', denied)).toBe('You may not open this report');
  });

  it('asks before leaving only while changes are not acknowledged', () => {
    expect(hasUnsavedChanges(facts({ unsyncedChanges: 1, status: 'disconnected' }))).toBe(true);
    expect(hasUnsavedChanges(facts({ status: 'connected', synced: true }))).toBe(false);
  });
});
