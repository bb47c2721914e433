import { reportImageSrc } from '@ris/editor';
import { Node, type Extensions } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import type { AuthedImageCache } from '../authed-images.ts';

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Replaces the image node of `extensions` with one whose view loads its `src` (an API path) with the
 * bearer token and shows the object URL. The document keeps the API path: what is saved, sent to
 * collaborators and printed never contains a blob: URL. Only report image paths are loaded: a source
 * a collaborator set to any other API path is never requested with the viewer's token.
 */
export function withAuthedImages(extensions: Extensions, cache: AuthedImageCache): Extensions {
  return extensions.map((extension) => {
    if (extension.name !== 'image' || !(extension instanceof Node)) return extension;
    return extension.extend({
      addNodeView() {
        return ({ node }) => {
          const img = document.createElement('img');
          img.draggable = false;
          let shown: string | null = null;
          const apply = (next: PMNode): void => {
            const src = reportImageSrc(next.attrs.src);
            const alt = text(next.attrs.alt);
            const title = text(next.attrs.title);
            if (alt) img.alt = alt;
            else img.removeAttribute('alt');
            if (title) img.title = title;
            else img.removeAttribute('title');
            if (src) img.dataset.src = src;
            if (src === shown) return;
            shown = src;
            img.removeAttribute('src');
            delete img.dataset.failed;
            if (!src) return;
            cache
              .url(src)
              .then((url) => {
                if (shown === src) img.src = url;
              })
              .catch(() => {
                if (shown !== src) return;
                img.dataset.failed = 'true';
                if (!alt) img.alt = 'Image could not be loaded';
              });
          };
          apply(node);
          return {
            dom: img,
            update: (updated) => {
              if (updated.type !== node.type) return false;
              apply(updated);
              return true;
            },
          };
        };
      },
    });
  });
}
