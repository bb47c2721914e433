// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { settingsStore, tableSettingsOf } from '../../stores/settings-store.ts';
import { byName, click, render, typeInto, type Rendered } from '../../test/dom.tsx';
import { PreferencesForm } from './preferences-form.tsx';

const USER_ID = '00000000-0000-4000-8000-0000000000a1';
let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  settingsStore.getState().reset();
});

/** The select inside the label whose caption reads `caption`. */
function selectOf(root: ParentNode, caption: string): HTMLSelectElement {
  const field = Array.from(root.querySelectorAll('label')).find(
    (element) => element.querySelector('span')?.textContent === caption,
  );
  const select = field?.querySelector('select');
  if (!select) throw new Error(`No select captioned "${caption}"`);
  return select;
}

/** The radio or checkbox inside the label reading `text`, within the fieldset titled `legend`. */
function inputOf(root: ParentNode, legend: string, text: string): HTMLInputElement {
  const group = Array.from(root.querySelectorAll('fieldset')).find(
    (element) => element.querySelector('legend')?.textContent === legend,
  );
  const field = Array.from(group?.querySelectorAll('label') ?? []).find(
    (element) => element.textContent?.trim() === text,
  );
  const input = field?.querySelector('input');
  if (!input) throw new Error(`No input "${text}" in "${legend}"`);
  return input;
}

describe('PreferencesForm', () => {
  it('shows the current preferences and changes each one in the settings store', async () => {
    view = await render(<PreferencesForm userId={USER_ID} />);
    const root = view.container;
    expect(inputOf(root, 'Theme', 'Dark').checked).toBe(true);
    expect(selectOf(root, 'Default viewer').value).toBe('ohif');
    expect(selectOf(root, 'Worklist page size').value).toBe('10');
    expect(selectOf(root, 'Report finder page size').value).toBe('20');
    expect(selectOf(root, 'Date range').value).toBe('TODAY');
    expect(Array.from(selectOf(root, 'Date range').options).map((option) => option.value)).not.toContain(
      'CUSTOM',
    );

    await click(inputOf(root, 'Theme', 'Light'));
    await click(inputOf(root, 'Quick action', 'View'));
    await typeInto(selectOf(root, 'Default viewer'), 'weasis');
    await typeInto(selectOf(root, 'Worklist page size'), '50');
    await typeInto(selectOf(root, 'Date range'), 'LAST_1_WEEK');
    await typeInto(selectOf(root, 'Status tab'), 'COMPLETED');
    await typeInto(selectOf(root, 'Order'), 'asc');
    await click(inputOf(root, 'A new worklist session starts with', 'CT'));
    const toasts = root.querySelector('[role="switch"]');
    expect(toasts?.getAttribute('aria-checked')).toBe('true');
    if (toasts) await click(toasts);
    expect(toasts?.getAttribute('aria-checked')).toBe('false');

    const state = settingsStore.getState();
    expect(state.theme).toBe('light');
    expect(tableSettingsOf(state, USER_ID)).toMatchObject({ quickAction: 'view', defaultViewer: 'weasis' });
    expect(state.pageSizes).toEqual({ worklist: 50, reportFinder: 20 });
    expect(state.defaultDateRange).toBe('LAST_1_WEEK');
    expect(state.defaultWorklistFilters).toMatchObject({
      status_group: 'COMPLETED',
      sort_order: 'asc',
      modalities: ['CT'],
    });
    expect(state.notifications.status_toasts).toBe(false);
  });

  it('takes the current worklist filters as the defaults', async () => {
    settingsStore.getState().setWorklistFilters({
      date_range_type: 'LAST_3_DAYS',
      statuses: ['FINAL'],
      modalities: ['MRI'],
      sort_order: 'asc',
    });
    settingsStore.getState().setWorklistGroup('COMPLETED');
    view = await render(<PreferencesForm userId={USER_ID} />);
    await click(byName(view.container, 'button', 'Use my current worklist filters'));
    const state = settingsStore.getState();
    expect(state.defaultDateRange).toBe('LAST_3_DAYS');
    expect(state.defaultWorklistFilters).toMatchObject({
      status_group: 'COMPLETED',
      statuses: ['FINAL'],
      modalities: ['MRI'],
      sort_order: 'asc',
      sort_by: 'created_at',
    });
    expect(view.container.textContent).toContain('Also 1 status and 0 facilities.');
  });
});
