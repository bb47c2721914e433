import { MAX_REPORT_CONTENT_LENGTH, type TReport } from '@ris/domain';
import { REPORT_FRAGMENT, reportDocumentName } from '@ris/editor';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyUpdate, Doc, encodeStateAsUpdate, XmlElement, XmlText } from 'yjs';
import { Awareness, encodeAwarenessUpdate, applyAwarenessUpdate } from 'y-protocols/awareness';
import { reports, reportVersions, studies } from '../db/schema/index.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import {
  acknowledged,
  appendParagraph,
  awarenessSeen,
  connectionClosed,
  openEditor,
  until,
  type TEditor,
} from './collab-test-client.ts';
import { initialStateFromHtml, inspectDocument } from './report-document.ts';

// What the server lets into a report's document and its presence: unsafe content is repaired before
// it is stored, other root types are refused, the size is capped, versions are coalesced, presence
// cannot be forged, and editors who lost edit access elsewhere do not get their changes stored.
let server: TTestServer;
let world: TWorld;
const editors: TEditor[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { COLLAB_STORE_DEBOUNCE_MS: '100' } });
  world = await buildReportWorld(server);
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  await server.close();
});

async function open(user: TWorldUser, reportId: string): Promise<TEditor> {
  const editor = await openEditor(server.url, reportId, world.token(user));
  editors.push(editor);
  return editor;
}

async function stored(reportId: string) {
  const [row] = await server.db.select().from(reports).where(eq(reports.id, reportId));
  if (!row) throw new Error('no report');
  return row;
}

async function storedWhen(reportId: string, condition: (row: Awaited<ReturnType<typeof stored>>) => boolean) {
  await expect.poll(async () => condition(await stored(reportId)), { timeout: 10_000 }).toBe(true);
  return stored(reportId);
}

/** The stored Yjs state as a document of its own. */
function storedDocument(state: Uint8Array | null): Doc {
  if (!state) throw new Error('no Yjs state stored');
  const document = new Doc();
  applyUpdate(document, state);
  return document;
}

function elementNames(document: Doc): string[] {
  return document
    .getXmlFragment(REPORT_FRAGMENT)
    .toArray()
    .map((node) => (node instanceof XmlElement ? node.nodeName : 'text'));
}

describe('unsafe document content', () => {
  it('repairs nodes and attributes the editor does not know: clients converge, the stored state is clean', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    radiologist.document.transact(() => {
      const styled = new XmlElement('paragraph');
      styled.setAttribute('style', 'background:url(https://evil.example/track)');
      styled.insert(0, [new XmlText('Styled.')]);
      const script = new XmlElement('script');
      script.insert(0, [new XmlText('alert(1)')]);
      radiologist.document.getXmlFragment(REPORT_FRAGMENT).push([styled, script]);
    });
    await acknowledged(radiologist);

    const expected = '<p>Findings: normal.</p><p>Styled.</p>';
    const row = await storedWhen(report.id, (current) => current.content === expected);
    const clean = storedDocument(row.ydocState);
    expect(inspectDocument(clean, report.id)).toEqual({ html: expected, clean: true });
    expect(elementNames(clean)).toEqual(['paragraph', 'paragraph']);
    for (const editor of [radiologist, transcriptionist]) {
      await until(editor.document, () => elementNames(editor.document).length === 2);
      expect(inspectDocument(editor.document, report.id)).toEqual({ html: expected, clean: true });
    }
  });

  it('closes the connection of a client whose update nests 20,000 deep; the document is still stored', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const intruder = await open('transcriptionist', report.id);
    const closed = connectionClosed(intruder);
    intruder.document.transact(() => {
      const top = new XmlElement('blockquote');
      intruder.document.getXmlFragment(REPORT_FRAGMENT).push([top]);
      // Each level inserted into one already in the document (a new tree is integrated recursively).
      let parent = top;
      for (let level = 0; level < 20_000; level += 1) {
        const child = new XmlElement('blockquote');
        parent.insert(0, [child]);
        parent = child;
      }
    });
    expect((await closed).reason).toBe('too-deep');
    intruder.close();

    appendParagraph(radiologist.document, 'Still editing.');
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) => current.content.endsWith('<p>Still editing.</p>'));
    expect(row.content).not.toContain('blockquote');
  });

  it('measures an update from where it goes in the document: deep enough lists pass, deeper ones close', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const nest = (parent: XmlElement, levels: number): XmlElement => {
      let list = parent;
      for (let level = 0; level < levels; level += 1) {
        const item = new XmlElement('listItem');
        list.insert(0, [item]);
        const inner = new XmlElement('bulletList');
        item.insert(0, [inner]);
        list = inner;
      }
      return list;
    };
    // 60 levels of lists (120 item levels: deeper than any report) are taken.
    const top = new XmlElement('bulletList');
    let deepest = top;
    radiologist.document.transact(() => {
      radiologist.document.getXmlFragment(REPORT_FRAGMENT).push([top]);
      deepest = nest(top, 60);
    });
    await acknowledged(radiologist);
    // 50 more, sent alone, start 121 levels down: past 200, refused.
    const closed = connectionClosed(radiologist);
    radiologist.document.transact(() => nest(deepest, 50));
    expect((await closed).reason).toBe('too-deep');
    radiologist.close();
  });

  it('repairs a stored state with data under other root types', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const tainted = new Doc();
    applyUpdate(tainted, initialStateFromHtml(report.id, report.version, report.content));
    tainted.getMap('payload').set('html', '<img src=x onerror=alert(1)>');
    await server.db
      .update(reports)
      .set({ ydocState: encodeStateAsUpdate(tainted) })
      .where(eq(reports.id, report.id));
    const radiologist = await open('radiologist', report.id);
    expect(radiologist.document.getMap('payload').size).toBe(1);

    appendParagraph(radiologist.document, 'Typed.');
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) => current.content.includes('Typed.'));
    const clean = storedDocument(row.ydocState);
    expect(clean.getMap('payload').size).toBe(0);
    expect(inspectDocument(clean, report.id).clean).toBe(true);
    await until(radiologist.document, () => radiologist.document.getMap('payload').size === 0);
    expect(radiologist.html()).toBe('<p>Findings: normal.</p><p>Typed.</p>');
  });

  it('closes the connection of a client whose update writes under another root type', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const intruder = await open('transcriptionist', report.id);
    const closed = connectionClosed(intruder);
    intruder.document.getMap('payload').set('html', '<script>alert(1)</script>');
    expect((await closed).reason).toBe('foreign-content');
    intruder.close();

    appendParagraph(radiologist.document, 'Still editing.');
    await acknowledged(radiologist);
    const document = server.app.collaboration.documents.get(reportDocumentName(report.id));
    expect(document?.getMap('payload').size).toBe(0);
    expect(radiologist.document.getMap('payload').size).toBe(0);
  });

  it('leaves ordinary typing alone: spaces, marks and breaks are not a reason to rewrite the document', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const first = radiologist.document.getXmlFragment(REPORT_FRAGMENT).get(0);
    radiologist.document.transact(() => {
      const paragraph = new XmlElement('paragraph');
      const text = new XmlText();
      text.insert(0, 'Two  spaces, ');
      text.insert(13, 'bold', { bold: {} });
      text.insert(17, ' and a trailing space ', {});
      paragraph.insert(0, [text, new XmlElement('hardBreak')]);
      radiologist.document.getXmlFragment(REPORT_FRAGMENT).push([paragraph]);
    });
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) => current.content.includes('Two'));
    expect(row.content).toBe(
      '<p>Findings: normal.</p><p>Two  spaces, <strong>bold</strong> and a trailing space <br /></p>',
    );
    // The same Yjs nodes: nothing was replaced.
    expect(radiologist.document.getXmlFragment(REPORT_FRAGMENT).get(0)).toBe(first);
    expect(radiologist.document.getXmlFragment(REPORT_FRAGMENT).length).toBe(2);
  });
});

describe('size', () => {
  it('refuses a change that makes the report too long, and later changes are still stored', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    const closed = connectionClosed(transcriptionist);
    appendParagraph(transcriptionist.document, 'x'.repeat(MAX_REPORT_CONTENT_LENGTH));
    expect(await closed).toEqual({ code: 4413, reason: 'report-too-large' });
    await until(radiologist.document, () => radiologist.html() === '<p>Findings: normal.</p>');

    appendParagraph(radiologist.document, 'After.');
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) => current.content.includes('After.'));
    expect(row.content).toBe('<p>Findings: normal.</p><p>After.</p>');
  });

  it('closes a connection that sends a message over 2 MB', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    const closed = connectionClosed(radiologist);
    appendParagraph(radiologist.document, 'y'.repeat(2_200_000));
    expect((await closed).code).toBe(1009);
    radiologist.close();
    appendParagraph(transcriptionist.document, 'Small.');
    await acknowledged(transcriptionist);
    const document = server.app.collaboration.documents.get(reportDocumentName(report.id));
    expect(document && inspectDocument(document, report.id).html).toBe(
      '<p>Findings: normal.</p><p>Small.</p>',
    );
  });
});

describe('versions of collaborative stores', () => {
  async function versionsOf(reportId: string) {
    return server.db
      .select({ version: reportVersions.version, createdBy: reportVersions.createdBy })
      .from(reportVersions)
      .where(and(eq(reportVersions.reportId, reportId), eq(reportVersions.kind, 'EDIT')))
      .orderBy(asc(reportVersions.version));
  }

  it('keeps one row per editor while they type, each store still a new version for REST writers', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const { radiologist: rao, transcriptionist: tia } = world.users;
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    appendParagraph(radiologist.document, 'One.');
    await acknowledged(radiologist);
    const first = await storedWhen(report.id, (row) => row.content.includes('One.'));
    appendParagraph(radiologist.document, 'Two.');
    await acknowledged(radiologist);
    const second = await storedWhen(report.id, (row) => row.content.includes('Two.'));
    expect(second.version).toBe(first.version + 1);
    expect(await versionsOf(report.id)).toEqual([
      { version: report.version, createdBy: rao.id },
      { version: second.version, createdBy: rao.id },
    ]);

    appendParagraph(transcriptionist.document, 'Three.');
    await acknowledged(transcriptionist);
    const third = await storedWhen(report.id, (row) => row.content.includes('Three.'));
    expect(await versionsOf(report.id)).toEqual([
      { version: report.version, createdBy: rao.id },
      { version: second.version, createdBy: rao.id },
      { version: third.version, createdBy: tia.id },
    ]);

    // A REST writer holding a version from before the coalesced stores is refused; the current one works.
    const stale = await world.call('radiologist', 'PUT', `/worklist/report/${report.id}`, {
      content: '<p>Stale.</p>',
      version: first.version,
      by_user_id: rao.id,
    });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('Tia Transcriber');
    const current = await world.call('radiologist', 'PUT', `/worklist/report/${report.id}`, {
      content: '<p>Current.</p>',
      version: third.version,
      by_user_id: rao.id,
    });
    expect(current.status).toBe(200);
    expect((current.json as TReport).version).toBe(third.version + 1);
  });
});

describe('presence', () => {
  it('shows a reader as not writable and drops entries a connection sends for other clients', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const witness = await open('transcriptionist', report.id);
    const reader = await open('facilityAdmin', report.id);
    expect(reader.scope).toBe('readonly');
    radiologist.provider.setAwarenessField('presence', { writable: true, focused: false });
    await awarenessSeen(witness, (state) => state.marker === undefined && !!state.presence);

    const seen: Record<string, unknown>[] = [];
    witness.provider.awareness?.on('change', () => {
      seen.push(...(witness.provider.awareness?.getStates().values() ?? []));
    });
    // The reader claims to be the focused writable editor, and forges the radiologist's presence.
    reader.provider.setAwarenessField('presence', { writable: true, focused: true });
    const forgedDocument = new Doc();
    forgedDocument.clientID = radiologist.document.clientID;
    const forger = new Awareness(forgedDocument);
    forger.setLocalState({ presence: { writable: false, focused: false }, marker: 'forged' });
    for (let clock = 0; clock < 50; clock++) forger.setLocalStateField('marker', 'forged');
    const readerAwareness = reader.provider.awareness;
    if (!readerAwareness) throw new Error('no awareness');
    applyAwarenessUpdate(
      readerAwareness,
      encodeAwarenessUpdate(forger, [radiologist.document.clientID]),
      'forged',
    );
    reader.provider.setAwarenessField('marker', 'after');

    const readerState = await awarenessSeen(witness, (state) => state.marker === 'after');
    expect(readerState.presence).toEqual({ writable: false, focused: true });
    expect(seen.some((state) => state.marker === 'forged')).toBe(false);
    const radiologistState = witness.provider.awareness?.getStates().get(radiologist.document.clientID);
    expect(radiologistState?.presence).toEqual({ writable: true, focused: false });
  });
});

describe('edit access revoked elsewhere', () => {
  it('does not store the changes of an editor who lost edit access, and makes them reconnect', async () => {
    const { studyId, report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    expect(transcriptionist.scope).toBe('read-write');
    // As another replica would: no event reaches this one.
    await server.db.update(studies).set({ collaborationEnabled: false }).where(eq(studies.id, studyId));
    const reauthenticated = new Promise<string>((resolve) =>
      transcriptionist.provider.on('authenticated', ({ scope }: { scope: string }) => resolve(scope)),
    );

    appendParagraph(transcriptionist.document, 'Typed without access.');
    await until(radiologist.document, () => radiologist.html().includes('Typed without access.'));
    expect(await reauthenticated).toBe('readonly');
    await until(radiologist.document, () => !radiologist.html().includes('Typed without access.'));

    appendParagraph(radiologist.document, 'Typed by the radiologist.');
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) =>
      current.content.includes('Typed by the radiologist.'),
    );
    expect(row.content).toBe('<p>Findings: normal.</p><p>Typed by the radiologist.</p>');
  });
});
