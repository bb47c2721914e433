import { MAX_VISIBLE_TOASTS } from '@ris/domain';
import { Toaster as SonnerToaster } from 'sonner';
import { useSettings } from '../../stores/settings-store.ts';

/** The one toast region: one toast at a time, Alt+T moves focus to it (sonner's notifications hotkey). */
export function Toaster() {
  const theme = useSettings((state) => state.theme);
  return (
    <SonnerToaster
      theme={theme}
      position="bottom-right"
      visibleToasts={MAX_VISIBLE_TOASTS}
      hotkey={['altKey', 'KeyT']}
      richColors
      closeButton
      toastOptions={{ className: 'font-sans text-[13px]' }}
    />
  );
}
