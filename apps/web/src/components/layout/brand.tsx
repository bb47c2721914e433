import { cn } from '../ui/cn.ts';

/** The product mark: a small badge and the name 'RIS'. */
export function Brand({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <span
        aria-hidden="true"
        className="flex size-6 items-center justify-center rounded-md bg-accent text-accent-fg shadow-sm"
      >
        <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.6">
          <circle cx="8" cy="8" r="5.5" />
          <path d="M8 2.5v11M2.5 8h11" strokeLinecap="round" opacity="0.55" />
          <circle cx="8" cy="8" r="2" fill="currentColor" stroke="none" />
        </svg>
      </span>
      <span className="text-[15px] font-semibold tracking-tight text-fg">RIS</span>
    </span>
  );
}
