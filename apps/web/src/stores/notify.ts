import { toast } from 'sonner';
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

export const sonnerNotifier: Notifier = {
  show: (kind, message, options = {}) => toast[kind](message, options),
  dismiss: (id) => void toast.dismiss(id),
};

export { TOAST_KINDS, type TToastKind };
