import type { ReactNode } from 'react';

export interface PageProps {
  title: string;
  description?: string;
  actions?: ReactNode;
  children?: ReactNode;
  /** Use the whole width (dense tables) instead of a readable column. */
  wide?: boolean;
}

/** A screen inside the layout: its <h1>, an optional description and actions, then its content. */
export function Page({ title, description, actions, children, wide = false }: PageProps) {
  return (
    <div
      className={
        wide
          ? 'flex w-full flex-col gap-4 px-5 py-5'
          : 'mx-auto flex w-full max-w-6xl flex-col gap-5 px-6 py-6'
      }
    >
      <title>{`${title} · RIS`}</title>
      <div className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-lg font-semibold tracking-tight text-fg">{title}</h1>
          {description ? <p className="mt-0.5 text-[13px] text-fg-muted">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}
