import type { TTheme } from '@ris/domain';

/** Applies a theme by the 'dark' class on the document root (Tailwind's dark variant keys on it). */
export function applyTheme(theme: TTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}
