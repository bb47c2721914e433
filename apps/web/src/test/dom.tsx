// Helpers for component tests that run in happy-dom (`// @vitest-environment happy-dom`): render
// with React 19's act, click, type into inputs the way React notices, and wait for a condition.
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

export interface Rendered {
  container: HTMLElement;
  rerender: (ui: ReactNode) => Promise<void>;
  unmount: () => Promise<void>;
}

export async function render(ui: ReactNode): Promise<Rendered> {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  const container = document.createElement('div');
  document.body.append(container);
  let root: Root | null = null;
  await act(async () => {
    root = createRoot(container);
    root.render(ui);
  });
  return {
    container,
    rerender: async (next) => {
      await act(async () => root?.render(next));
    },
    unmount: async () => {
      await act(async () => root?.unmount());
      container.remove();
    },
  };
}

export async function click(element: Element): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
    (element as HTMLElement).click();
  });
}

/** Sets an input's or select's value through the native setter, so React's onChange fires. */
export async function typeInto(element: HTMLInputElement | HTMLSelectElement, value: string): Promise<void> {
  await act(async () => {
    const proto = Object.getPrototypeOf(element) as object;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    setter?.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/**
 * Runs `check` until it stops throwing (React effects, resolved fetches), for up to `timeoutMs`.
 * The limit is generous on purpose: CI runs these beside the database suites on two cores, where one
 * stalled second of event loop must not fail a check whose promise chain simply has not run yet;
 * a passing check returns as soon as it holds, so only a real failure waits this long.
 */
export async function waitFor<T>(check: () => T, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    }
  }
}

/** The element matching `selector` whose text or aria-label is `name` (buttons, links, labels). */
export function byName<T extends Element = HTMLElement>(root: ParentNode, selector: string, name: string): T {
  const found = Array.from(root.querySelectorAll<T>(selector)).find(
    (element) => element.getAttribute('aria-label') === name || element.textContent?.trim() === name,
  );
  if (!found) throw new Error(`No ${selector} named "${name}"`);
  return found;
}

/** The input, select or textarea whose <label> reads `label`. */
export function byLabel<T extends HTMLElement = HTMLInputElement>(root: ParentNode, label: string): T {
  const labelElement = Array.from(root.querySelectorAll('label')).find(
    (element) => element.textContent?.trim() === label,
  );
  const id = labelElement?.getAttribute('for');
  const field = id ? root.querySelector<T>(`#${CSS.escape(id)}`) : null;
  if (!field) throw new Error(`No field labelled "${label}"`);
  return field;
}
