// Each rule of the report sanitiser tested where it alone stands between the input and the harm:
// every element the allow-list keeps (read from the allow-list itself, in markup where that element
// is kept) carries every event handler attribute, or a javascript:/data: URL in every attribute a
// browser reads a URL from, and must come out kept and exactly as it would without them. (A test on
// an element the sanitiser drops anyway, such as an <img> of another report, proves nothing about
// attributes.) Removing the attribute allow-list, the image filter or the style filter makes these
// tests fail.
import { describe, expect, it } from 'vitest';
import {
  REPORT_HTML_ALLOWED_ATTRIBUTES,
  REPORT_HTML_ALLOWED_TAGS,
  sanitizeReportHtml,
} from './sanitize-report-html.ts';

const REPORT = '11111111-1111-4111-8111-111111111111';
const IMAGE = `/api/v1/worklist/report/${REPORT}/images/22222222-2222-4222-8222-222222222222`;

/** Event handler content attributes of HTML elements, SVG and the window (WHATWG, MDN). */
const EVENT_HANDLERS = [
  'abort',
  'afterprint',
  'animationcancel',
  'animationend',
  'animationiteration',
  'animationstart',
  'auxclick',
  'beforeinput',
  'beforematch',
  'beforeprint',
  'beforetoggle',
  'beforeunload',
  'begin',
  'blur',
  'cancel',
  'canplay',
  'canplaythrough',
  'change',
  'click',
  'close',
  'contentvisibilityautostatechange',
  'contextlost',
  'contextmenu',
  'contextrestored',
  'copy',
  'cuechange',
  'cut',
  'dblclick',
  'drag',
  'dragend',
  'dragenter',
  'dragexit',
  'dragleave',
  'dragover',
  'dragstart',
  'drop',
  'durationchange',
  'emptied',
  'end',
  'ended',
  'error',
  'focus',
  'focusin',
  'focusout',
  'formdata',
  'gotpointercapture',
  'hashchange',
  'input',
  'invalid',
  'keydown',
  'keypress',
  'keyup',
  'languagechange',
  'load',
  'loadeddata',
  'loadedmetadata',
  'loadend',
  'loadstart',
  'lostpointercapture',
  'message',
  'messageerror',
  'mousedown',
  'mouseenter',
  'mouseleave',
  'mousemove',
  'mouseout',
  'mouseover',
  'mouseup',
  'mousewheel',
  'offline',
  'online',
  'pagehide',
  'pagereveal',
  'pageshow',
  'pageswap',
  'paste',
  'pause',
  'play',
  'playing',
  'pointercancel',
  'pointerdown',
  'pointerenter',
  'pointerleave',
  'pointermove',
  'pointerout',
  'pointerover',
  'pointerrawupdate',
  'pointerup',
  'popstate',
  'progress',
  'ratechange',
  'rejectionhandled',
  'repeat',
  'reset',
  'resize',
  'scroll',
  'scrollend',
  'scrollsnapchange',
  'scrollsnapchanging',
  'search',
  'securitypolicyviolation',
  'seeked',
  'seeking',
  'select',
  'selectionchange',
  'selectstart',
  'slotchange',
  'stalled',
  'storage',
  'submit',
  'suspend',
  'timeupdate',
  'toggle',
  'touchcancel',
  'touchend',
  'touchmove',
  'touchstart',
  'transitioncancel',
  'transitionend',
  'transitionrun',
  'transitionstart',
  'unhandledrejection',
  'unload',
  'volumechange',
  'waiting',
  'webkitanimationend',
  'webkitanimationiteration',
  'webkitanimationstart',
  'webkittransitionend',
  'wheel',
].map((event) => `on${event}`);

/** Attributes a browser reads a URL (or script) from, on some element. */
const URL_ATTRIBUTES = [
  'href',
  'src',
  'srcset',
  'xlink:href',
  'action',
  'formaction',
  'background',
  'poster',
  'data',
  'lowsrc',
  'dynsrc',
  'ping',
  'cite',
  'longdesc',
  'usemap',
  'manifest',
  'codebase',
  'archive',
];

const DANGEROUS_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '&#106;avascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=alert(1)>',
];

/** Markup in which `tag` is kept, with `attributes` written into its start tag. */
function markup(tag: string, attributes: string): string {
  switch (tag) {
    case 'br':
    case 'hr':
      return `<p>a</p><${tag}${attributes}><p>b</p>`;
    case 'img':
      return `<img src="${IMAGE}"${attributes}>`;
    case 'div':
      return `<div data-type="page-break"${attributes}></div>`;
    case 'ul':
    case 'ol':
      return `<${tag}${attributes}><li><p>x</p></li></${tag}>`;
    case 'li':
      return `<ul><li${attributes}><p>x</p></li></ul>`;
    case 'table':
      return `<table${attributes}><tbody><tr><td><p>x</p></td></tr></tbody></table>`;
    case 'thead':
    case 'tbody':
      return `<table><${tag}${attributes}><tr><td><p>x</p></td></tr></${tag}></table>`;
    case 'tr':
      return `<table><tbody><tr${attributes}><td><p>x</p></td></tr></tbody></table>`;
    case 'th':
    case 'td':
      return `<table><tbody><tr><${tag}${attributes}><p>x</p></${tag}></tr></tbody></table>`;
    case 'colgroup':
      return `<table><colgroup${attributes}><col></colgroup><tbody><tr><td>x</td></tr></tbody></table>`;
    case 'col':
      return `<table><colgroup><col${attributes}></colgroup><tbody><tr><td>x</td></tr></tbody></table>`;
    default:
      return `<${tag}${attributes}>x</${tag}>`;
  }
}

const sanitize = (html: string) => sanitizeReportHtml(html, { reportId: REPORT });

describe('every kept element × every event handler attribute', () => {
  it('reads the kept elements from the allow-list', () => {
    expect(REPORT_HTML_ALLOWED_TAGS).toEqual(expect.arrayContaining(['p', 'img', 'td', 'div']));
    expect(EVENT_HANDLERS.length).toBeGreaterThan(100);
  });

  it.each(REPORT_HTML_ALLOWED_TAGS.map((tag) => [tag]))('<%s> is kept without any on* attribute', (tag) => {
    const clean = sanitize(markup(tag, ''));
    expect(clean, 'the element is kept, so its attributes are what is tested').toContain(`<${tag}`);
    for (const handler of EVENT_HANDLERS) {
      const written = [
        ` ${handler}="alert(1)"`,
        ` ${handler.toUpperCase()}=alert(1)`,
        ` ${handler} = 'alert(1)'`,
        `/${handler}=alert(1)`,
      ];
      for (const attribute of written) {
        expect(sanitize(markup(tag, attribute)), `<${tag}${attribute}>`).toBe(clean);
      }
    }
  });
});

describe('every kept element × javascript: and data: URLs', () => {
  it.each(REPORT_HTML_ALLOWED_TAGS.filter((tag) => tag !== 'img').map((tag) => [tag]))(
    '<%s> is kept without any URL attribute',
    (tag) => {
      const clean = sanitize(markup(tag, ''));
      expect(clean).toContain(`<${tag}`);
      for (const name of URL_ATTRIBUTES) {
        for (const url of DANGEROUS_URLS) {
          expect(sanitize(markup(tag, ` ${name}="${url}"`)), `<${tag} ${name}="${url}">`).toBe(clean);
        }
      }
    },
  );

  it('an image keeps its src only when it is one of the report own images: a script or data URL drops it', () => {
    expect(sanitize(markup('img', ''))).toBe(`<img src="${IMAGE}" />`);
    for (const url of DANGEROUS_URLS) {
      expect(sanitize(`<p>a</p><img src="${url}" alt="x"><p>b</p>`), url).toBe('<p>a</p><p>b</p>');
      // A second src, or srcset, next to a kept one is not a way in either.
      expect(sanitize(`<img src="${IMAGE}" srcset="${url}">`), url).toBe(`<img src="${IMAGE}" />`);
    }
  });

  it('every kept attribute of a kept element holds no script URL after sanitising', () => {
    for (const [tag, names] of Object.entries(REPORT_HTML_ALLOWED_ATTRIBUTES)) {
      for (const name of names.filter((n) => n !== 'src')) {
        for (const url of DANGEROUS_URLS) {
          const out = sanitize(markup(tag, ` ${name}="${url}"`));
          if (name === 'style') expect(out, `<${tag} style="${url}">`).toBe(sanitize(markup(tag, '')));
          // Text attributes (alt, title, ...) may keep the words; no URL attribute may carry them.
          expect(out).not.toMatch(/\s(?:src|href|style|action|srcset)="\s*(?:javascript|vbscript|data):/i);
        }
      }
    }
  });

  it('a style keeps text-align only: url(), expression() and javascript: are dropped', () => {
    for (const tag of Object.keys(REPORT_HTML_ALLOWED_ATTRIBUTES).filter((t) =>
      REPORT_HTML_ALLOWED_ATTRIBUTES[t]?.includes('style'),
    )) {
      for (const style of [
        'background:url(javascript:alert(1))',
        "background-image:url('data:image/svg+xml,<svg onload=alert(1)>')",
        'width:expression(alert(1))',
        'behavior:url(x.htc)',
      ]) {
        const out = sanitize(markup(tag, ` style="text-align:center;${style}"`));
        expect(out, `<${tag} style="${style}">`).toBe(sanitize(markup(tag, ' style="text-align:center"')));
        expect(out).toContain('style="text-align:center"');
      }
      expect(sanitize(markup(tag, ' style="text-align:javascript:alert(1)"'))).toBe(
        sanitize(markup(tag, '')),
      );
    }
  });
});
