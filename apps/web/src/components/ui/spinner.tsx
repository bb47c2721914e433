import { LoaderCircle } from 'lucide-react';
import { cn } from './cn.ts';

/** A decorative spinning icon; announce the loading state next to it, not through it. */
export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />;
}
