import { useIsFetching } from '@tanstack/react-query';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { toastWanted } from '../../stores/notify.ts';

const SonnerRegion = lazy(() => import('./sonner-toaster.tsx'));

/** Loads the region when the browser is first idle after the screen shows (1 s at most). */
function whenIdle(callback: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: 1_000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, 200);
  return () => clearTimeout(handle);
}

/** A region that could not load (a lost connection) leaves the page as it is instead of breaking it. */
class WithoutToastsOnFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** At the latest, the region loads this long after start-up (a screen that keeps fetching). */
const LOAD_AT_LATEST_MS = 5_000;

/**
 * The one toast region. It is not part of what a screen needs to show: it loads at the first toast,
 * or once the screen's data has arrived and the browser is idle (so it never competes with them on
 * a slow hospital link), or after 5 s. stores/notify.ts queues toasts until it has mounted.
 */
export function Toaster() {
  const [load, setLoad] = useState(false);
  const fetching = useIsFetching();
  useEffect(() => {
    if (load) return;
    let active = true;
    const start = () => {
      if (active) setLoad(true);
    };
    void toastWanted.then(start);
    const latest = setTimeout(start, LOAD_AT_LATEST_MS);
    const cancelIdle = fetching === 0 ? whenIdle(start) : () => undefined;
    return () => {
      active = false;
      clearTimeout(latest);
      cancelIdle();
    };
  }, [load, fetching]);
  return load ? (
    <WithoutToastsOnFailure>
      <Suspense fallback={null}>
        <SonnerRegion />
      </Suspense>
    </WithoutToastsOnFailure>
  ) : null;
}
