import type { SelectHTMLAttributes } from 'react';
import { cn } from './cn.ts';

export const selectClassName = cn(
  'h-8 rounded-md border border-line-strong bg-surface-raised px-2 text-[13px] text-fg',
  'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-focus/40',
);

/** A native select in the app's style (native for free keyboard and screen-reader support). */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(selectClassName, className)} {...props} />;
}
