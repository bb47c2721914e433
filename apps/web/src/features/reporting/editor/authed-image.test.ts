// @vitest-environment happy-dom
import { reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthedImageCache } from '../authed-images.ts';
import { withAuthedImages } from './authed-image.ts';

const SRC = '/api/v1/worklist/report/6f0c/images/91ab';
const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

function setup(fetchBlob: (path: string) => Promise<Blob>) {
  const requested: string[] = [];
  const cache = createAuthedImageCache((path) => {
    requested.push(path);
    return fetchBlob(path);
  });
  const editor = new Editor({
    extensions: withAuthedImages(reportExtensions(), cache),
    content: `<p>Before</p><img src="${SRC}" alt="Axial slice"><p>After</p>`,
  });
  editors.push(editor);
  return { editor, requested, cache };
}

async function shownImage(editor: Editor): Promise<HTMLImageElement> {
  const img = editor.view.dom.querySelector('img');
  if (!img) throw new Error('no image rendered');
  await expect.poll(() => img.getAttribute('src') ?? img.dataset.failed ?? null).not.toBeNull();
  return img;
}

describe('key images in the editor', () => {
  it('shows an object URL fetched through the API while the document keeps the API path', async () => {
    const { editor, requested } = setup(() => Promise.resolve(new Blob(['png'], { type: 'image/png' })));
    const img = await shownImage(editor);
    expect(img.getAttribute('src')).toMatch(/^blob:/);
    expect(img.dataset.src).toBe(SRC);
    expect(img.alt).toBe('Axial slice');
    expect(requested).toEqual(['/worklist/report/6f0c/images/91ab']);
    expect(editor.getHTML()).toContain(`<img src="${SRC}" alt="Axial slice">`);
    expect(editor.getHTML()).not.toContain('blob:');
  });

  it('marks an image that could not be loaded, and tries again next time', async () => {
    let fail = true;
    const { editor, cache, requested } = setup(() =>
      fail ? Promise.reject(new Error('403')) : Promise.resolve(new Blob(['png'])),
    );
    const img = await shownImage(editor);
    expect(img.dataset.failed).toBe('true');
    expect(img.hasAttribute('src')).toBe(false);
    fail = false;
    await expect(cache.url(SRC)).resolves.toMatch(/^blob:/);
    expect(requested).toHaveLength(2);
  });

  it('never fetches a source outside the API', async () => {
    const cache = createAuthedImageCache(() => Promise.resolve(new Blob()));
    await expect(cache.url('https://evil.example/x.png')).rejects.toThrow(/not an API image/);
  });
});
