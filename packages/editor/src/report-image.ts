import Image from '@tiptap/extension-image';
import { boundedInteger, plainText } from './safe-values.ts';

/**
 * The only image source a report may hold: a key image of a report, served by our authorised image
 * route (reportImagePath in @ris/domain). Group 1 is the report id, group 2 the image id.
 */
export const REPORT_IMAGE_SRC =
  /^\/api\/v1\/worklist\/report\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The source when it is a report image path (REPORT_IMAGE_SRC), null for anything else. */
export function reportImageSrc(value: unknown): string | null {
  return typeof value === 'string' && REPORT_IMAGE_SRC.test(value) ? value : null;
}

/** The id of the report a report image path belongs to, or null when it is not one. */
export function reportIdOfImageSrc(value: unknown): string | null {
  return typeof value === 'string' ? (REPORT_IMAGE_SRC.exec(value)?.[1] ?? null) : null;
}

/** Width and height in pixels: positive integers, bounded. */
const dimension = (value: unknown) => boundedInteger(value, 1, 100_000);

/**
 * Key images. Only report image paths are parsed (other <img> are not images of the document) and
 * rendered (a `src` set through a collaborator's update to any other URL, or to another API path,
 * renders no source, so no viewer's browser requests it); width and height only as integers.
 */
export const ReportImage = Image.extend({
  addAttributes() {
    return {
      src: {
        default: null,
        parseHTML: (element) => reportImageSrc(element.getAttribute('src')),
        renderHTML: (attributes) => {
          const src = reportImageSrc(attributes.src);
          return src ? { src } : {};
        },
      },
      alt: {
        default: null,
        parseHTML: (element) => plainText(element.getAttribute('alt')),
        renderHTML: (attributes) => {
          const alt = plainText(attributes.alt);
          return alt ? { alt } : {};
        },
      },
      title: {
        default: null,
        parseHTML: (element) => plainText(element.getAttribute('title')),
        renderHTML: (attributes) => {
          const title = plainText(attributes.title);
          return title ? { title } : {};
        },
      },
      width: {
        default: null,
        parseHTML: (element) => dimension(element.getAttribute('width')),
        renderHTML: (attributes) => {
          const width = dimension(attributes.width);
          return width === null ? {} : { width: String(width) };
        },
      },
      height: {
        default: null,
        parseHTML: (element) => dimension(element.getAttribute('height')),
        renderHTML: (attributes) => {
          const height = dimension(attributes.height);
          return height === null ? {} : { height: String(height) };
        },
      },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'img[src]',
        getAttrs: (element) => (reportImageSrc(element.getAttribute('src')) ? null : false),
      },
    ];
  },
});
