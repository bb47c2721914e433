// @vitest-environment happy-dom
import { reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthedImageCache } from '../authed-images.ts';
import { withAuthedImages } from './authed-image.ts';

const REPORT = '6f0c6f0c-0000-4000-8000-000000000001';
const IMAGE = '91ab91ab-0000-4000-8000-000000000002';
const SRC = `/api/v1/worklist/report/${REPORT}/images/${IMAGE}`;
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
    expect(requested).toEqual([`/worklist/report/${REPORT}/images/${IMAGE}`]);
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

  it('never requests an image source that is not a report image path', async () => {
    const requested: string[] = [];
    const cache = createAuthedImageCache((path) => {
      requested.push(path);
      return Promise.resolve(new Blob(['png']));
    });
    // As a collaborator's update can set it: any attribute value, past every parse rule.
    const sources = ['/api/v1/users/me', `${SRC}?x=1`, '/api/v1/worklist/report/x/images/y', SRC];
    const editor = new Editor({
      extensions: withAuthedImages(reportExtensions({ collaboration: true }), cache),
      content: { type: 'doc', content: sources.map((src) => ({ type: 'image', attrs: { src } })) },
    });
    editors.push(editor);
    const images = [...editor.view.dom.querySelectorAll('img')];
    expect(images).toHaveLength(sources.length);
    await expect.poll(() => images[3]?.getAttribute('src') ?? null).toMatch(/^blob:/);
    expect(requested).toEqual([`/worklist/report/${REPORT}/images/${IMAGE}`]);
    expect(images.slice(0, 3).map((img) => img.hasAttribute('src') || 'src' in img.dataset)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('never fetches a source outside the API', async () => {
    const cache = createAuthedImageCache(() => Promise.resolve(new Blob()));
    await expect(cache.url('https://evil.example/x.png')).rejects.toThrow(/not an API image/);
  });
});
