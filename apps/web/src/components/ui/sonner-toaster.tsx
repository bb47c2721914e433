import { MAX_VISIBLE_TOASTS } from '@ris/domain';
import { useEffect } from 'react';
import { Toaster as SonnerToaster } from 'sonner';
import { markToasterMounted } from '../../stores/notify.ts';
import { useSettings } from '../../stores/settings-store.ts';

/** sonner's region, loaded lazily by ./toaster.tsx: one toast at a time, Alt+T moves focus to it. */
export default function SonnerRegion() {
  const theme = useSettings((state) => state.theme);
  // The Toaster (a child) has subscribed to sonner's toasts in its own effect, which runs before this.
  useEffect(() => markToasterMounted(), []);
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
