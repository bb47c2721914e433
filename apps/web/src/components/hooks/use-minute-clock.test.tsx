// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { MINUTE_MS, useMinuteClock } from './use-minute-clock.ts';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.useRealTimers();
});

function Clock() {
  return <time>{useMinuteClock().toISOString()}</time>;
}

describe('useMinuteClock', () => {
  it('moves on once a minute and stops when the component goes', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T20:58:00.000Z') });
    view = await render(<Clock />);
    expect(view.container.textContent).toBe('2026-11-25T20:58:00.000Z');

    await act(async () => {
      vi.advanceTimersByTime(MINUTE_MS - 1);
    });
    expect(view.container.textContent).toBe('2026-11-25T20:58:00.000Z');

    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(view.container.textContent).toBe('2026-11-25T20:59:00.000Z');

    await view.unmount();
    view = null;
    expect(vi.getTimerCount()).toBe(0);
  });
});
