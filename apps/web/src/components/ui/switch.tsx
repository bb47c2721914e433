import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.ts';

export interface SwitchProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'role' | 'onClick' | 'onChange'
> {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The switch's visible label (and any description), drawn before the track. */
  children: ReactNode;
}

/** An on/off button (role="switch", aria-checked) with its label and a sliding track. */
export function Switch({ checked, onCheckedChange, className, children, ...rest }: SwitchProps) {
  return (
    <button
      {...rest}
      type="button"
      role="switch"
      aria-checked={checked}
      onClick={() => onCheckedChange(!checked)}
      className={className}
    >
      {children}
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-flex h-4 w-7 shrink-0 items-center rounded-full transition-colors',
          checked ? 'bg-accent' : 'bg-line-strong',
        )}
      >
        <span
          className={cn(
            'absolute size-3 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-3.5' : 'translate-x-0.5',
          )}
        />
      </span>
    </button>
  );
}
