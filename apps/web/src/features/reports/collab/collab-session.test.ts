import { describe, expect, it } from 'vitest';
import { collabUrl, insertLeader, peersOf } from './collab-session.ts';
import { userColour } from './user-colour.ts';

describe('collaboration session helpers', () => {
  it('connects to /collab on the page origin, over wss on https', () => {
    expect(collabUrl({ protocol: 'https:', host: 'ris.example:8443' })).toBe('wss://ris.example:8443/collab');
    expect(collabUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/collab');
  });

  it('lists each other person once, without oneself or states that carry no user', () => {
    const states = new Map<number, Record<string, unknown>>([
      [1, { user: { id: 'me', name: 'Me', color: '#000000' } }],
      [2, { user: { id: 'a', name: 'Dr A', color: '#111111' } }],
      [3, { user: { id: 'a', name: 'Dr A', color: '#111111' } }],
      [4, {}],
      [5, { user: { id: 'me', name: 'Me in another tab', color: '#000000' } }],
      [6, { user: { id: 'b', name: 'Neha', color: '#222222' } }],
    ]);
    expect(peersOf(states, 1, 'me')).toEqual([
      { id: 'a', name: 'Dr A', color: '#111111' },
      { id: 'b', name: 'Neha', color: '#222222' },
    ]);
  });

  it('gives each user a stable #rrggbb colour (the caret extension accepts only that form)', () => {
    const colour = userColour('8d1f7f52-0a43-4b1e-9f3e-2f0e9c1d1a11');
    expect(colour).toMatch(/^#[0-9a-f]{6}$/);
    expect(userColour('8d1f7f52-0a43-4b1e-9f3e-2f0e9c1d1a11')).toBe(colour);
    const colours = new Set(['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map(userColour));
    expect(colours.size).toBeGreaterThan(2);
  });
});

describe('insert leader', () => {
  type TState = Record<string, unknown>;
  const state = (writable: boolean, focused = false): TState => ({ presence: { writable, focused } });
  const states = (...entries: [number, TState][]) => new Map<number, TState>(entries);

  it('is the focused writable editor, else the writable one with the lowest client id', () => {
    expect(insertLeader(states([9, state(true)], [4, state(true)], [2, state(false)], [1, {}]))).toBe(4);
    expect(insertLeader(states([9, state(true, true)], [4, state(true)]))).toBe(9);
    expect(insertLeader(states([9, state(true, true)], [4, state(true, true)]))).toBe(4);
  });

  it('is nobody when no editor may write', () => {
    expect(insertLeader(states([3, state(false, true)], [5, {}]))).toBeNull();
  });
});
