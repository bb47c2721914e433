// A report's collaborative document: the Yjs fragment REPORT_FRAGMENT holding the editor's ProseMirror
// tree (schema: @ris/editor's reportExtensions), converted to and from the report's sanitised HTML.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { TiptapTransformer } from '@hocuspocus/transformer';
import { getSchema, type JSONContent } from '@tiptap/core';
import { DOMSerializer, Node, type Attrs } from '@tiptap/pm/model';
import type * as TiptapHtml from '@tiptap/html/server';
import type * as HappyDom from 'happy-dom';
import type { Window } from 'happy-dom';
import { REPORT_FRAGMENT, reportExtensions } from '@ris/editor';
import {
  Doc,
  XmlElement,
  XmlText,
  encodeStateAsUpdate,
  type Item,
  type Transaction,
  type XmlFragment,
} from 'yjs';
import { MAX_REPORT_HTML_NESTING, sanitizeReportHtml } from '../html/sanitize-report-html.ts';

/** The server converts with the collaborative schema (no history extension; the same nodes and marks). */
const extensions = reportExtensions({ collaboration: true });

const schema = getSchema(extensions);
const serializer = DOMSerializer.fromSchema(schema);
type TSerializerOptions = NonNullable<Parameters<typeof serializer.serializeFragment>[1]>;
type TTarget = NonNullable<Parameters<typeof serializer.serializeFragment>[2]>;

// happy-dom (~480 modules) and @tiptap/html's server build load on the first conversion, not with
// the server: most starts never open a collaborative document. A synchronous require of their ES
// module entry (Node 24) keeps the functions below synchronous and shares the module instances.
const requireOnce = createRequire(import.meta.url);
const requireEsm = (specifier: string): unknown => requireOnce(fileURLToPath(import.meta.resolve(specifier)));
let happyDom: typeof HappyDom | null = null;
let tiptapHtml: typeof TiptapHtml | null = null;
const loadHappyDom = () => (happyDom ??= requireEsm('happy-dom') as typeof HappyDom);
const generateJSON: typeof TiptapHtml.generateJSON = (html, extensionList) =>
  (tiptapHtml ??= requireEsm('@tiptap/html/server') as typeof TiptapHtml).generateJSON(html, extensionList);

/** One DOM for every render (created on first use): documents are rendered on every store. */
let renderWindow: Window | null = null;

/**
 * ProseMirror JSON → HTML, as @tiptap/html/server's generateHTML does it (the editor's schema, the
 * DOMSerializer, a happy-dom document), but with the schema and the DOM kept between calls: that
 * takes a store's rendering from ~5-40 ms to well under 1 ms, time the event loop does not spend
 * away from relaying keystrokes.
 */
function renderDocument() {
  renderWindow ??= new (loadHappyDom().Window)({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableComputedStyleRendering: true,
    },
  });
  return renderWindow;
}

function generateHtml(json: JSONContent): string {
  const { document } = renderDocument();
  const wrap = document.createElement('div');
  serializer.serializeFragment(
    Node.fromJSON(schema, json).content,
    { document } as unknown as TSerializerOptions,
    wrap as unknown as TTarget,
  );
  return wrap.innerHTML;
}

const DOCUMENT_NAME = /^report\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The report id of a document name `report.{id}` (reportDocumentName), or null for any other name. */
export function reportIdOfDocument(documentName: string): string | null {
  return DOCUMENT_NAME.exec(documentName)?.[1] ?? null;
}

/** Report HTML sanitised for the report (only its own key images are kept). */
const sanitized = (html: string, reportId: string) => sanitizeReportHtml(html, { reportId });

/** ProseMirror JSON of (sanitised) report HTML, parsed with the editor's schema. */
export function htmlToJson(html: string, reportId: string): JSONContent {
  return generateJSON(sanitized(html, reportId), extensions);
}

/** Sanitised HTML of ProseMirror JSON; an empty document is '' (what a new report holds). */
function renderHtml(json: JSONContent, reportId: string): string {
  if (!json.content?.length) return '';
  const html = generateHtml(json);
  return html === '<p></p>' ? '' : sanitized(html, reportId);
}

/** What a document holds, as a store sees it. */
export type TDocumentInspection = {
  /** The content as sanitised HTML (what the REST API serves and the PDF renders). */
  html: string;
  /**
   * False when the document holds more than that HTML: nodes, marks or attributes the editor's schema
   * does not know, content the sanitiser removes from the rendered HTML, or data outside the report's
   * fragment (other root types). Such a document is repaired before it is stored or relayed further.
   */
  clean: boolean;
};

/** Rendering of an empty document: '' (what a new report holds). */
const emptyAsNothing = (html: string) => (html === '<p></p>' ? '' : html);

/**
 * Inspects the document: its report fragment as the schema sees it (anything the schema does not
 * know is left out, never thrown on, so that a client cannot make every store fail), rendered and
 * sanitised, and whether anything was left out or sanitised away.
 */
export function inspectDocument(document: Doc, reportId: string): TDocumentInspection {
  const dropped = { value: hasForeignContent(document) };
  const content = childrenJson(reportFragment(document).toArray(), dropped);
  const raw = emptyAsNothing(renderChildren(content, dropped));
  const html = raw === '' ? '' : sanitized(raw, reportId);
  return { html, clean: !dropped.value && (html === raw || sameMarkup(html, raw)) };
}

/** The document's content as sanitised HTML (what the REST API serves and the PDF renders). */
export function documentToHtml(document: Doc, reportId: string): string {
  return inspectDocument(document, reportId).html;
}

/** A style attribute's declarations, as written by either serialiser (`a: b;` or `a:b`). */
const declarations = (style: string) =>
  style
    .split(';')
    .map((declaration) => declaration.replace(/\s+/g, ''))
    .filter(Boolean)
    .join(';');

type TMarkupNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TMarkupNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
};

function sameNode(a: TMarkupNode, b: TMarkupNode): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.childNodes.length === 0 && b.childNodes.length === 0 && a.textContent !== b.textContent) return false;
  const attributes = (node: TMarkupNode) =>
    Array.from(
      node.attributes ?? [],
      ({ name, value }) => `${name}=${name === 'style' ? declarations(value) : value}`,
    )
      .sort()
      .join('\n');
  if (attributes(a) !== attributes(b)) return false;
  if (a.childNodes.length !== b.childNodes.length) return false;
  return Array.from(a.childNodes).every((child, index) => {
    const other = b.childNodes[index];
    return other !== undefined && sameNode(child, other);
  });
}

/**
 * The same elements, attributes and text, whatever the serialisation (`<br>` or `<br />`, `&nbsp;`
 * or U+00A0, spaces in style declarations): the sanitiser and the editor's renderer write the same
 * markup differently.
 */
function sameMarkup(a: string, b: string): boolean {
  const { document } = renderDocument();
  const parse = (html: string) => {
    const wrap = document.createElement('div');
    wrap.innerHTML = html;
    return wrap as unknown as TMarkupNode;
  };
  return sameNode(parse(a), parse(b));
}

type TDropped = { value: boolean };

/** The attributes the spec declares; any other is dropped (and noted). */
function knownAttrs(spec: object | undefined, given: unknown, dropped: TDropped): Attrs | undefined {
  if (!given || typeof given !== 'object') return undefined;
  const known: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (spec && Object.hasOwn(spec, name)) known[name] = value;
    else dropped.value = true;
  }
  return Object.keys(known).length > 0 ? known : undefined;
}

/** y-prosemirror stores overlapping marks of one type as `name--hash`. */
const markName = (attribute: string) => /^(.*)--[a-zA-Z0-9+/=]{8}$/.exec(attribute)?.[1] ?? attribute;

function textJson(text: XmlText, dropped: TDropped): JSONContent[] {
  const delta = text.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[];
  return delta.flatMap(({ insert, attributes }) => {
    if (typeof insert !== 'string' || insert === '') {
      dropped.value = true;
      return [];
    }
    const marks = Object.entries(attributes ?? {}).flatMap(([attribute, attrs]) => {
      const name = markName(attribute);
      const type = schema.marks[name];
      if (!type) {
        dropped.value = true;
        return [];
      }
      const known = knownAttrs(type.spec.attrs, attrs, dropped);
      return [{ type: name, ...(known ? { attrs: known } : {}) }];
    });
    return [{ type: 'text', text: insert, ...(marks.length > 0 ? { marks } : {}) }];
  });
}

function childrenJson(children: unknown[], dropped: TDropped, depth = 1): JSONContent[] {
  return children.flatMap((child): JSONContent[] => {
    if (child instanceof XmlText) return textJson(child, dropped);
    const type = child instanceof XmlElement ? schema.nodes[child.nodeName] : undefined;
    // Deeper than the sanitiser keeps (and than the editor nests): left out, so that no walk of a
    // document a client nested thousands deep runs out of stack.
    if (
      !(child instanceof XmlElement) ||
      !type ||
      type.isText ||
      type === schema.topNodeType ||
      depth > MAX_REPORT_HTML_NESTING
    ) {
      dropped.value = true;
      return [];
    }
    const attrs = knownAttrs(type.spec.attrs, child.getAttributes(), dropped);
    const content = childrenJson(child.toArray(), dropped, depth + 1);
    return [
      {
        type: child.nodeName,
        ...(attrs ? { attrs } : {}),
        ...(content.length > 0 ? { content } : {}),
      },
    ];
  });
}

/** HTML of top-level nodes; a node that cannot be built or rendered is left out (and noted). */
function renderChildren(content: JSONContent[], dropped: TDropped): string {
  if (content.length === 0) return '';
  try {
    return generateHtml({ type: 'doc', content });
  } catch {
    return content
      .map((node) => {
        try {
          return generateHtml({ type: 'doc', content: [node] });
        } catch {
          dropped.value = true;
          return '';
        }
      })
      .join('');
  }
}

/** True when the type holds content that is not deleted (items in its list or map). */
function hasLiveItems(type: { _start: Item | null; _map: Map<string, Item> }, includeList: boolean): boolean {
  if (includeList) {
    for (let item = type._start; item; item = item.right) if (!item.deleted) return true;
  }
  for (const item of type._map.values()) if (!item.deleted) return true;
  return false;
}

/** Content outside the report fragment's list of nodes: other root types, or map entries on it. */
function hasForeignContent(document: Doc): boolean {
  for (const [name, type] of document.share) {
    if (hasLiveItems(type, name !== REPORT_FRAGMENT)) return true;
  }
  return false;
}

/** Deletes everything outside the report fragment's list of nodes (inside the caller's transaction). */
function deleteForeignContent(document: Doc, transaction: Transaction): void {
  for (const [name, type] of document.share) {
    if (name !== REPORT_FRAGMENT) {
      for (let item = type._start; item; item = item.right) if (!item.deleted) item.delete(transaction);
    }
    for (const item of type._map.values()) if (!item.deleted) item.delete(transaction);
  }
}

/**
 * Makes the document hold exactly the HTML (sanitised, parsed with the editor's schema) and nothing
 * else, as one change with the given origin: every client converges on it (the way a REST write is
 * pushed in, replaceFragmentContent).
 */
export function resetDocument(document: Doc, reportId: string, html: string, origin: unknown): void {
  document.transact((transaction) => {
    replaceFragmentContent(reportFragment(document), html, reportId);
    deleteForeignContent(document, transaction);
  }, origin);
}

/**
 * Report HTML as the editor's schema renders it (what documentToHtml gives for a document holding
 * it): two HTML strings with the same canonical form are the same document.
 */
export function canonicalHtml(html: string, reportId: string): string {
  return renderHtml(htmlToJson(html, reportId), reportId);
}

/** Top-level nodes of the HTML as Yjs types, not yet part of any document (to insert somewhere). */
function nodesOf(html: string, reportId: string): (XmlElement | XmlText)[] {
  const parsed = TiptapTransformer.toYdoc(htmlToJson(html, reportId), REPORT_FRAGMENT, extensions);
  const nodes = parsed.getXmlFragment(REPORT_FRAGMENT).toArray();
  return nodes.flatMap((node) =>
    node instanceof XmlElement || node instanceof XmlText ? [node.clone()] : [],
  );
}

/** A Yjs client id from the seed: the same HTML builds the same structs on every replica. */
function seededClientId(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) >>> 1;
}

/**
 * The Yjs state of a report built from its HTML (a report that has no Yjs state yet). Built with a
 * client id derived from the report, its version and the HTML, so two replicas that build it at the
 * same time produce identical structs that merge into one copy, never into two.
 */
export function initialStateFromHtml(reportId: string, version: number, html: string): Uint8Array {
  const seeded = new Doc();
  seeded.clientID = seededClientId(`${reportId}:${version}:${html}`);
  const nodes = nodesOf(html, reportId);
  if (nodes.length > 0) seeded.getXmlFragment(REPORT_FRAGMENT).insert(0, nodes);
  const state = encodeStateAsUpdate(seeded);
  seeded.destroy();
  return state;
}

/** Replaces the whole content of the fragment by the HTML's (inside the caller's transaction). */
export function replaceFragmentContent(fragment: XmlFragment, html: string, reportId: string): void {
  const nodes = nodesOf(html, reportId);
  if (fragment.length > 0) fragment.delete(0, fragment.length);
  if (nodes.length > 0) fragment.insert(0, nodes);
}

/** The fragment of a document that holds the report. */
export function reportFragment(document: Doc): XmlFragment {
  return document.getXmlFragment(REPORT_FRAGMENT);
}
