// Collaboration test clients (test-only module): the real Hocuspocus provider over a real WebSocket
// (Node's global WebSocket), as the browser's editor connects. Every wait is on an event.
import { HocuspocusProvider } from '@hocuspocus/provider';
import { REPORT_FRAGMENT, reportDocumentName } from '@ris/editor';
import { Doc, XmlElement, XmlText } from 'yjs';
import { documentToHtml } from './report-document.ts';

export type TEditor = {
  provider: HocuspocusProvider;
  document: Doc;
  /** What the server granted: 'read-write' or 'readonly'. */
  scope: string;
  /** The document as report HTML (as the server renders it). */
  html(): string;
  close(): void;
};

/** ws://host:port/collab of a test server's http:// URL. */
export function collabUrl(serverUrl: string): string {
  return `${serverUrl.replace(/^http/, 'ws')}/collab`;
}

function provider(serverUrl: string, name: string, token: string, document: Doc) {
  return new HocuspocusProvider({ url: collabUrl(serverUrl), name, token, document });
}

/** Opens a report's document; resolves once authenticated and synced, rejects when refused. */
export function openEditor(serverUrl: string, reportId: string, token: string): Promise<TEditor> {
  const document = new Doc();
  const client = provider(serverUrl, reportDocumentName(reportId), token, document);
  let scope = '';
  return new Promise((resolve, reject) => {
    client.on('authenticated', ({ scope: granted }: { scope: string }) => {
      scope = granted;
    });
    client.on('authenticationFailed', ({ reason }: { reason: string }) => {
      client.destroy();
      reject(new Error(`refused: ${reason}`));
    });
    client.on('synced', () =>
      resolve({
        provider: client,
        document,
        scope,
        html: () => documentToHtml(document, reportId),
        close: () => client.destroy(),
      }),
    );
  });
}

/** Opens a document that must be refused; resolves with the server's reason. */
export function refusedReason(serverUrl: string, documentName: string, token: string): Promise<string> {
  const client = provider(serverUrl, documentName, token, new Doc());
  return new Promise((resolve, reject) => {
    client.on('authenticationFailed', ({ reason }: { reason: string }) => {
      client.destroy();
      resolve(reason);
    });
    client.on('synced', () => {
      client.destroy();
      reject(new Error('the connection was accepted'));
    });
  });
}

/** Appends a paragraph with the text (a local change the provider sends to the server). */
export function appendParagraph(document: Doc, text: string): void {
  const paragraph = new XmlElement('paragraph');
  paragraph.insert(0, [new XmlText(text)]);
  document.getXmlFragment(REPORT_FRAGMENT).push([paragraph]);
}

/** Types text at the start of the first paragraph's text. */
export function typeAtStart(document: Doc, text: string): void {
  const first = document.getXmlFragment(REPORT_FRAGMENT).get(0);
  const node = first instanceof XmlElement ? first.get(0) : null;
  if (node instanceof XmlText) node.insert(0, text);
  else appendParagraph(document, text);
}

/** Resolves once the condition on the document holds (checked now and after each of its updates). */
export function until(document: Doc, condition: () => boolean): Promise<void> {
  if (condition()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!condition()) return;
      document.off('update', check);
      resolve();
    };
    document.on('update', check);
  });
}

/** Resolves once the server has acknowledged every local change of the editor. */
export function acknowledged(editor: TEditor): Promise<void> {
  if (editor.provider.unsyncedChanges === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (editor.provider.unsyncedChanges !== 0) return;
      editor.provider.off('unsyncedChanges', check);
      resolve();
    };
    editor.provider.on('unsyncedChanges', check);
  });
}

/** Resolves once some awareness state seen by the editor satisfies the condition. */
export function awarenessSeen(
  editor: TEditor,
  condition: (state: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const awareness = editor.provider.awareness;
  if (!awareness) throw new Error('the provider has no awareness');
  const find = () => [...awareness.getStates().values()].find((state) => condition(state));
  const found = find();
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const check = () => {
      const state = find();
      if (!state) return;
      awareness.off('change', check);
      resolve(state);
    };
    awareness.on('change', check);
  });
}

/**
 * Resolves with the next close the provider sees: its socket's close (the server's code and reason),
 * or a document closed by a CLOSE message (code 1000, the server's reason).
 */
export function connectionClosed(editor: TEditor): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    const closed = ({ event }: { event: { code: number; reason: string } }) => {
      editor.provider.off('close', closed);
      resolve({ code: event.code, reason: event.reason });
    };
    editor.provider.on('close', closed);
  });
}
