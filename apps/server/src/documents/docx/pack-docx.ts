// Writing the DOCX package fast. Two costs of the `docx` package have nothing to do with the
// document and took three quarters of the render time with two 150 KB key images:
// - every ImageRun names its media file by a SHA-1 of the bytes computed in JavaScript (hash.js,
//   after copying the buffer into an array);
// - Packer deflates every part with pako, images included, though JPEG and PNG are compressed.
// So an ImageRun is given a 32-byte stand-in (a native SHA-256 of the image) instead of the image,
// and the package is taken from Packer's compiler (a public static at run time, `private` only in
// the typings): each media entry gets its real bytes back, stored rather than deflated, and every
// other part is deflated as Packer does. Should a docx release drop the compiler, images are given
// to docx as they are and Packer.toBuffer writes the file.
import { createHash } from 'node:crypto';
import { type Document, Packer } from 'docx';

type TZipEntry = { options: { compression: string | null } };
type TZip = {
  files: Record<string, TZipEntry>;
  file(name: string, data: Buffer, options: { compression: 'STORE' }): unknown;
  generateAsync(options: { type: 'nodebuffer'; compression: 'DEFLATE'; mimeType: string }): Promise<Buffer>;
};
type TCompiler = { compile(file: Document, prettify?: string, overrides?: readonly unknown[]): TZip };

const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const compiler = (Packer as unknown as { compiler?: Partial<TCompiler> }).compiler;
const compile = typeof compiler?.compile === 'function' ? compiler.compile.bind(compiler) : null;

/** The images of one DOCX being built: stand-ins for ImageRun, real bytes for the package. */
export class DocxMedia {
  /** SHA-1 (hex) of a stand-in, i.e. the media file name docx gives it → the image's bytes. */
  private readonly images = new Map<string, Buffer>();

  /** What to give ImageRun as `data`. */
  standIn(data: Buffer): Buffer {
    if (!compile) return data;
    const token = createHash('sha256').update(data).digest();
    this.images.set(createHash('sha1').update(token).digest('hex'), data);
    return token;
  }

  /** Bytes of a media entry ("word/media/{sha1}.png"), or undefined when it is not a stand-in. */
  bytesOf(entryName: string): Buffer | undefined {
    const hash = /^word\/media\/([0-9a-f]{40})\.\w+$/.exec(entryName)?.[1];
    return hash ? this.images.get(hash) : undefined;
  }
}

export async function packDocx(document: Document, media: DocxMedia): Promise<Buffer> {
  if (!compile) return Packer.toBuffer(document);
  const zip = compile(document, undefined, []);
  for (const [name, entry] of Object.entries(zip.files)) {
    if (!name.startsWith('word/media/')) continue;
    const bytes = media.bytesOf(name);
    if (bytes) zip.file(name, bytes, { compression: 'STORE' });
    else entry.options.compression = 'STORE';
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', mimeType: DOCX_MEDIA_TYPE });
}
