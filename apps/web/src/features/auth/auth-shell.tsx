import type { ReactNode } from 'react';
import { Brand } from '../../components/layout/brand.tsx';
import { ThemeToggle } from '../../components/layout/theme-toggle.tsx';

export interface AuthShellProps {
  title: string;
  description?: string;
  children: ReactNode;
  /** Below the card: links to the other public screens. */
  footer?: ReactNode;
}

/** The frame of the public screens (sign-in, sign-up, password reset): one centred card. */
export function AuthShell({ title, description, children, footer }: AuthShellProps) {
  return (
    <div className="relative flex min-h-full flex-col bg-canvas">
      <title>{`${title} · RIS`}</title>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-[radial-gradient(60%_100%_at_50%_0%,var(--color-accent-soft),transparent)]"
      />
      <header className="relative flex h-14 items-center justify-between px-6">
        <Brand />
        <ThemeToggle />
      </header>
      <main className="relative flex flex-1 items-start justify-center px-4 pt-[9vh] pb-16">
        <div className="w-full max-w-[380px]">
          <div className="rounded-xl border border-line bg-surface p-7 shadow-[0_1px_2px_rgb(0_0_0/0.06),0_8px_24px_-12px_rgb(0_0_0/0.25)]">
            <h1 className="text-xl font-semibold tracking-tight text-fg">{title}</h1>
            {description ? <p className="mt-1 text-[13px] text-fg-muted">{description}</p> : null}
            <div className="mt-6">{children}</div>
          </div>
          {footer ? <div className="mt-5 text-center text-[13px] text-fg-muted">{footer}</div> : null}
        </div>
      </main>
      <footer className="relative pb-6 text-center text-xs text-fg-subtle">
        Radiology information system for teleradiology groups
      </footer>
    </div>
  );
}
