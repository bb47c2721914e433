import { describe, expect, it } from 'vitest';
import { createAppStore } from './app-store.ts';
import type { Notifier } from './notify.ts';

function recorder(): Notifier & { shown: string[]; dismissed: (string | number | undefined)[] } {
  let next = 0;
  const shown: string[] = [];
  const dismissed: (string | number | undefined)[] = [];
  return {
    shown,
    dismissed,
    show: (kind, message, options) => {
      shown.push(`${kind}:${message}`);
      return options?.id ?? `t${++next}`;
    },
    dismiss: (id) => void dismissed.push(id),
  };
}

describe('app store toasts', () => {
  it('shows one toast at a time, dismissing the previous one', () => {
    const notifier = recorder();
    const store = createAppStore(notifier);
    store.getState().showToast('info', 'First');
    store.getState().showToast('error', 'Failed to fetch worklist');
    expect(notifier.shown).toEqual(['info:First', 'error:Failed to fetch worklist']);
    expect(notifier.dismissed).toEqual(['t1']);
    expect(store.getState().toast).toEqual({ id: 't2', kind: 'error', message: 'Failed to fetch worklist' });
  });

  it('replaces a loading toast in place when the id is reused', () => {
    const notifier = recorder();
    const store = createAppStore(notifier);
    const id = store.getState().showToast('loading', 'Generating PDF report...', { id: 'pdf' });
    store.getState().showToast('success', 'PDF downloaded successfully!', { id, duration: 3000 });
    expect(notifier.dismissed).toEqual([]);
    expect(store.getState().toast?.kind).toBe('success');
  });

  it('dismisses the toast on screen', () => {
    const notifier = recorder();
    const store = createAppStore(notifier);
    store.getState().showToast('warning', 'Careful');
    store.getState().dismissToast();
    expect(notifier.dismissed).toEqual(['t1']);
    expect(store.getState().toast).toBeNull();
  });
});
