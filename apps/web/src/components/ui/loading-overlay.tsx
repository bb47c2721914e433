import type { TLoaderSize } from '@ris/domain';
import { cn } from './cn.ts';
import { Spinner } from './spinner.tsx';

const SPINNER_SIZES = { small: 'size-4', medium: 'size-7', large: 'size-10' } as const satisfies Record<
  TLoaderSize,
  string
>;
const TEXT_SIZES = { small: 'text-xs', medium: 'text-sm', large: 'text-sm' } as const satisfies Record<
  TLoaderSize,
  string
>;

export interface LoadingOverlayProps {
  size?: TLoaderSize;
  /** Shown under the spinner; screen readers hear 'Loading' when it is omitted. */
  loadingText?: string;
  /** Covers the whole viewport (the route guard) instead of the nearest positioned parent. */
  fullScreen?: boolean;
  className?: string;
}

/** A loading indicator laid over the screen or a region while something it depends on is fetched. */
export function LoadingOverlay({
  size = 'medium',
  loadingText,
  fullScreen = false,
  className,
}: LoadingOverlayProps) {
  return (
    <div
      role="status"
      aria-live="polite"
      aria-busy="true"
      className={cn(
        'z-50 flex flex-col items-center justify-center gap-3 bg-canvas/85 backdrop-blur-[1px]',
        fullScreen ? 'fixed inset-0' : 'absolute inset-0',
        className,
      )}
    >
      <Spinner className={cn('text-accent', SPINNER_SIZES[size])} />
      {loadingText ? (
        <p className={cn('font-medium text-fg-muted', TEXT_SIZES[size])}>{loadingText}</p>
      ) : (
        <span className="sr-only">Loading</span>
      )}
    </div>
  );
}
