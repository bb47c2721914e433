// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { UploadProgress } from './upload-progress.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

describe('UploadProgress', () => {
  it('shows a labelled bar with the percentage while an upload runs', async () => {
    view = await render(<UploadProgress percent={42} />);
    const bar = view.container.querySelector('progress');
    expect(bar?.getAttribute('aria-label')).toBe('Upload progress');
    expect(bar?.getAttribute('max')).toBe('100');
    expect(bar?.value).toBe(42);
    expect(view.container.textContent).toBe('42%');
  });

  it('renders nothing when no upload runs', async () => {
    view = await render(<UploadProgress percent={null} />);
    expect(view.container.innerHTML).toBe('');
  });
});
