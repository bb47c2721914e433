import { cn } from './cn.ts';

/** An upload's progress bar with its percentage (0–100); renders nothing while no upload runs. */
export function UploadProgress({ percent, className }: { percent: number | null; className?: string }) {
  if (percent === null) return null;
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <progress
        aria-label="Upload progress"
        max={100}
        value={percent}
        className="h-1.5 flex-1 overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-surface-hover [&::-webkit-progress-value]:bg-accent"
      />
      <span className="w-9 text-right text-[11px] text-fg-muted tabular-nums">{percent}%</span>
    </div>
  );
}
