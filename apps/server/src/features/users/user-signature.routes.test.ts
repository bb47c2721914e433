import { MAX_SIGNATURE_BYTES, userSignaturePath } from '@ris/domain';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfImageCount } from '../../test/pdf-tools.ts';
import { pngDeclaring } from '../../test/png.ts';
import { buildReportWorld } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import {
  buildUserAdminWorld,
  postUserForm,
  savedUser,
  type TUserAdminWorld,
} from '../../test/user-admin-world.ts';

// A radiologist's signature: PNG or JPEG by content, at most 1 MB and 4 megapixels, previewed through
// GET /user/{id}/signature and drawn in the signature block of their PDFs and DOCX from then on.
let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

/** A real 1 × 1 PNG (decodable: the renderers draw it). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const errorOf = (response: { json: unknown }) =>
  (response.json as { error?: { code?: string; details?: { field?: string } } }).error;

describe('signature upload', () => {
  it('stores a PNG and serves it back to whoever sees the user', async () => {
    const saved = savedUser(
      await w.save('admin', { id: w.users.radiologist.id }, { data: PNG, filename: 'sig.png' }),
    );
    expect(saved.signature_url).toBe(userSignaturePath(w.users.radiologist.id));
    const path = `/user/${w.users.radiologist.id}/signature`;
    for (const user of ['admin', 'radiologist', 'transcriptionist', 'facilityAdmin'] as const) {
      const response = await fetch(`${server.url}/api/v1${path}`, {
        headers: { authorization: `Bearer ${w.token(user)}` },
      });
      expect(response.status, user).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    }
    expect((await w.get('outsider', path)).status).toBe(404);
    expect((await w.get('transcriptionistF2', path)).status).toBe(404);
    expect((await w.get('admin', `/user/${w.users.transcriptionist.id}/signature`)).status).toBe(404);
  });

  it('refuses what is not a PNG or JPEG by content, too large a file or too many pixels', async () => {
    const before = (await w.row(w.users.radiologist.id)).signatureFileId;
    const cases = [
      [{ data: Buffer.from('not an image at all'), filename: 'sig.png' }, 415],
      [{ data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), filename: 'sig.gif' }, 415],
      [{ data: Buffer.from('%PDF-1.4\n%%EOF\n'), filename: 'sig.pdf', type: 'application/pdf' }, 415],
      [{ data: Buffer.alloc(0), filename: 'empty.png' }, 400],
      [{ data: Buffer.concat([PNG, Buffer.alloc(MAX_SIGNATURE_BYTES)]), filename: 'big.png' }, 413],
      [{ data: pngDeclaring(2001, 2000), filename: 'wide.png' }, 413],
    ] as const;
    for (const [file, status] of cases) {
      const response = await w.save('admin', { id: w.users.radiologist.id, last_name: 'Changed' }, file);
      expect(response.status, `${file.filename}: ${response.text}`).toBe(status);
      expect(errorOf(response)?.details?.field, file.filename).toBe('signature_file');
    }
    const row = await w.row(w.users.radiologist.id);
    expect(row.signatureFileId).toBe(before);
    expect(row.lastName).not.toBe('Changed');
    // 4 megapixels exactly is allowed.
    const fits = await w.save(
      'admin',
      { id: w.users.transcriptionist.id },
      { data: pngDeclaring(2000, 2000), filename: 'square.png' },
    );
    expect(fits.status, fits.text).toBe(200);
  });

  it('may be removed with delete_signature', async () => {
    const user = w.users.transcriptionist.id;
    savedUser(await w.save('admin', { id: user }, { data: PNG, filename: 'sig.png' }));
    const removed = savedUser(await w.save('admin', { id: user, delete_signature: 'true' }));
    expect(removed.signature_url).toBeNull();
    expect((await w.get('admin', `/user/${user}/signature`)).status).toBe(404);
  });
});

describe("the radiologist's documents", () => {
  it('draw the uploaded signature in the PDF and put it in the DOCX', async () => {
    const world = await buildReportWorld(server);
    const { studyId } = await world.studyWithReport({ content: '<p>Signature check</p>' });
    const render = async (kind: 'pdf' | 'docx') => {
      const response = await fetch(`${server.url}/api/v1/worklist/report/preview/${kind}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.token('admin')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ worklist_id: studyId, html_content: '<p>Signature check</p>' }),
      });
      expect(response.status, kind).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const docxMedia = async (docx: Buffer) => {
      const zip = await JSZip.loadAsync(docx);
      return Object.values(zip.files).filter((file) => file.name.startsWith('word/media/') && !file.dir);
    };
    const pdfBefore = await pdfImageCount(await render('pdf'));
    const mediaBefore = await docxMedia(await render('docx'));
    // The report is signed by its assigned radiologist, Dr Rao; their admin uploads the signature.
    savedUser(
      await postUserForm(
        server,
        world.token('admin'),
        { id: world.users.radiologist.id, by_user_id: world.users.admin.id },
        { data: PNG, filename: 'rao.png' },
      ),
    );
    expect(await pdfImageCount(await render('pdf'))).toBe(pdfBefore + 1);
    const mediaAfter = await docxMedia(await render('docx'));
    expect(mediaAfter).toHaveLength(mediaBefore.length + 1);
  });
});
