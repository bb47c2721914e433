import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement } from 'react';

export const TooltipProvider = RadixTooltip.Provider;

/**
 * A short hint on hover or focus; the trigger must still carry its own accessible name. Each tooltip
 * brings its own provider, so a screen that shows none (the sign-in pages, the worklist, whose row
 * actions use the native title) loads no tooltip library.
 */
export function Tooltip({ content, children }: { content: string; children: ReactElement }) {
  return (
    <RadixTooltip.Provider delayDuration={400}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={6}
            className="z-50 rounded-md border border-line bg-surface-raised px-2 py-1 text-xs text-fg shadow-lg"
          >
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
