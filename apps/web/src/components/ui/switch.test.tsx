// @vitest-environment happy-dom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, render, type Rendered } from '../../test/dom.tsx';
import { Switch } from './switch.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

function Controlled({ onChange }: { onChange: (checked: boolean) => void }) {
  const [on, setOn] = useState(false);
  return (
    <Switch
      checked={on}
      onCheckedChange={(next) => {
        onChange(next);
        setOn(next);
      }}
    >
      Collaboration
    </Switch>
  );
}

describe('Switch', () => {
  it('is a labelled switch that asks for the opposite state and shows the state it is given', async () => {
    const onChange = vi.fn();
    view = await render(<Controlled onChange={onChange} />);
    const button = view.container.querySelector('button');
    if (!button) throw new Error('no switch');
    expect(button.getAttribute('role')).toBe('switch');
    expect(button.getAttribute('type')).toBe('button');
    expect(button.textContent).toBe('Collaboration');
    expect(button.getAttribute('aria-checked')).toBe('false');

    await click(button);
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(button.getAttribute('aria-checked')).toBe('true');

    await click(button);
    expect(onChange).toHaveBeenLastCalledWith(false);
    expect(button.getAttribute('aria-checked')).toBe('false');
  });

  it('does nothing while disabled', async () => {
    const onCheckedChange = vi.fn();
    view = await render(
      <Switch checked={false} onCheckedChange={onCheckedChange} disabled>
        Print the letterhead
      </Switch>,
    );
    const button = view.container.querySelector('button');
    if (!button) throw new Error('no switch');
    await click(button);
    expect(onCheckedChange).not.toHaveBeenCalled();
  });
});
