// A report's collaborative document: the Yjs fragment REPORT_FRAGMENT holding the editor's ProseMirror
// tree (schema: @ris/editor's reportExtensions), converted to and from the report's sanitised HTML.
import { createHash } from 'node:crypto';
import { TiptapTransformer } from '@hocuspocus/transformer';
import { getSchema, type JSONContent } from '@tiptap/core';
import { generateJSON } from '@tiptap/html/server';
import { DOMSerializer, Node } from '@tiptap/pm/model';
import { Window } from 'happy-dom';
import { REPORT_FRAGMENT, reportExtensions } from '@ris/editor';
import { Doc, XmlElement, XmlText, encodeStateAsUpdate, type XmlFragment } from 'yjs';
import { sanitizeReportHtml } from '../html/sanitize-report-html.ts';

/** The server converts with the collaborative schema (no history extension; the same nodes and marks). */
const extensions = reportExtensions({ collaboration: true });

const schema = getSchema(extensions);
const serializer = DOMSerializer.fromSchema(schema);
type TSerializerOptions = NonNullable<Parameters<typeof serializer.serializeFragment>[1]>;
type TTarget = NonNullable<Parameters<typeof serializer.serializeFragment>[2]>;
/** One DOM for every render (created on first use): documents are rendered on every store. */
let renderWindow: Window | null = null;

/**
 * ProseMirror JSON → HTML, as @tiptap/html/server's generateHTML does it (the editor's schema, the
 * DOMSerializer, a happy-dom document), but with the schema and the DOM kept between calls: that
 * takes a store's rendering from ~5-40 ms to well under 1 ms, time the event loop does not spend
 * away from relaying keystrokes.
 */
function generateHtml(json: JSONContent): string {
  renderWindow ??= new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableComputedStyleRendering: true,
    },
  });
  const { document } = renderWindow;
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

/** ProseMirror JSON of (sanitised) report HTML, parsed with the editor's schema. */
export function htmlToJson(html: string): JSONContent {
  return generateJSON(sanitizeReportHtml(html), extensions);
}

/** Sanitised HTML of ProseMirror JSON; an empty document is '' (what a new report holds). */
function renderHtml(json: JSONContent): string {
  if (!json.content?.length) return '';
  const html = generateHtml(json);
  return html === '<p></p>' ? '' : sanitizeReportHtml(html);
}

/** The document's content as sanitised HTML (what the REST API serves and the PDF renders). */
export function documentToHtml(document: Doc): string {
  return renderHtml(TiptapTransformer.fromYdoc(document, REPORT_FRAGMENT) as JSONContent);
}

/**
 * Report HTML as the editor's schema renders it (what documentToHtml gives for a document holding
 * it): two HTML strings with the same canonical form are the same document.
 */
export function canonicalHtml(html: string): string {
  return renderHtml(htmlToJson(html));
}

/** Top-level nodes of the HTML as Yjs types, not yet part of any document (to insert somewhere). */
function nodesOf(html: string): (XmlElement | XmlText)[] {
  const parsed = TiptapTransformer.toYdoc(htmlToJson(html), REPORT_FRAGMENT, extensions);
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
  const nodes = nodesOf(html);
  if (nodes.length > 0) seeded.getXmlFragment(REPORT_FRAGMENT).insert(0, nodes);
  const state = encodeStateAsUpdate(seeded);
  seeded.destroy();
  return state;
}

/** Replaces the whole content of the fragment by the HTML's (inside the caller's transaction). */
export function replaceFragmentContent(fragment: XmlFragment, html: string): void {
  const nodes = nodesOf(html);
  if (fragment.length > 0) fragment.delete(0, fragment.length);
  if (nodes.length > 0) fragment.insert(0, nodes);
}

/** The fragment of a document that holds the report. */
export function reportFragment(document: Doc): XmlFragment {
  return document.getXmlFragment(REPORT_FRAGMENT);
}
