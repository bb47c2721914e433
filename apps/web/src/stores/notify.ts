import type * as Sonner from 'sonner';
import { TOAST_KINDS, type TToastKind } from '@ris/domain';

export interface NotifyOptions {
  /** Reusing an id replaces that toast (e.g. a loading toast becoming a success toast). */
  id?: string | number;
  /** Milliseconds; omitted means sonner's default (loading toasts stay until replaced). */
  duration?: number;
  description?: string;
}

/** The toast surface the app talks to; sonner in the browser, a recorder in tests. */
export interface Notifier {
  show: (kind: TToastKind, message: string, options?: NotifyOptions) => string | number;
  dismiss: (id?: string | number) => void;
}

/**
 * sonner (about 11 KB of gzipped JavaScript) is not part of the first download: the toast region
 * (components/ui/toaster.tsx) loads it when the browser is first idle, or at the first toast, and
 * says here when it has mounted. A toast asked for before then is shown once it has (in order).
 */
let toasterMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (toasterMounted = resolve));
let wanted: () => void = () => undefined;
/** Resolves when something asks for a toast: the region then loads at once instead of waiting for idle. */
export const toastWanted = new Promise<void>((resolve) => (wanted = resolve));
let sonner: Promise<typeof Sonner> | undefined;

/** Called by the toast region once sonner's Toaster is on the page. */
export function markToasterMounted(): void {
  toasterMounted();
}

function loaded(): Promise<typeof Sonner> {
  wanted();
  sonner ??= Promise.all([import('sonner'), mounted]).then(([module]) => module);
  return sonner;
}

let lastId = 0;

export const sonnerNotifier: Notifier = {
  show: (kind, message, options = {}) => {
    const id = options.id ?? `ris-toast-${++lastId}`;
    loaded().then(
      ({ toast }) => toast[kind](message, { ...options, id }),
      () => console.warn(`Toast not shown (the toast region could not load): ${message}`),
    );
    return id;
  },
  dismiss: (id) =>
    void loaded().then(
      ({ toast }) => toast.dismiss(id),
      () => undefined,
    ),
};

export { TOAST_KINDS, type TToastKind };
