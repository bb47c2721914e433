// Multipart bodies of the API fuzz suite: forms with valid-looking and hostile fields and files,
// and forms that are broken (no boundary, cut off, a boundary that never appears, odd field names).
import { pngDeclaring } from '../../test/png.ts';
import { HOSTILE_VALUES, type TRandom, type TSchema, type TValueContext, valueFor } from './fuzz-inputs.ts';

const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';

/** Text fields the multipart routes read (their forms have no body schema in the OpenAPI document). */
const FIELD_NAMES = [
  'worklist_id',
  'by_user_id',
  'patient_name',
  'patient_id',
  'modality',
  'facility_fk',
  'datetime',
  'series_count',
  'filenames',
  'filenames[]',
  'enable_letterhead',
  'user_id',
  'user_name',
  'email',
  'message',
  '__proto__',
  'constructor',
];
const FILE_FIELDS = ['files', 'files[]', 'upload_files', 'header_file', 'footer_file', 'other', '__proto__'];

const FILES: readonly (() => Buffer)[] = [
  () => pngDeclaring(20, 20),
  () => pngDeclaring(60_000, 60_000),
  () => pngDeclaring(0, 0),
  () => Buffer.from('%PDF-1.4\n%fuzz\n'),
  () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  () => Buffer.alloc(0),
  () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  () => Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)),
];

const VALID_FILES: readonly (() => Buffer)[] = [
  () => pngDeclaring(20, 20),
  () => Buffer.from('%PDF-1.4\n%fuzz\n'),
];

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** A valid form of a route: its text fields and the field that carries its files. */
export type TFormTemplate = {
  fields: Record<string, string>;
  fileField: string;
  /** Path parameters that address a record the form may change. */
  params?: Record<string, string>;
};

/** Text of a form field: awkward within bounds (edgy), hostile, or as the template has it. */
function fieldValue(value: string, random: TRandom, ctx: TValueContext): string {
  if (ctx.edgy && random.chance(0.4)) return asText(valueFor({ type: 'string', maxLength: 200 }, ctx));
  if (!ctx.edgy && random.chance(0.1)) return asText(random.pick(HOSTILE_VALUES)).slice(0, 70_000);
  return value;
}

/**
 * A multipart request. With a `template` (a valid form of the route, from the test's world) most
 * forms are that form with awkward values, so they reach the route's command; otherwise random
 * fields.
 */
export function multipartRequest(
  random: TRandom,
  schema: TSchema | undefined,
  ctx: TValueContext,
  template?: TFormTemplate,
): { headers: Record<string, string>; body: Buffer; note: string } {
  const parts: Buffer[] = [];
  const field = (name: string, value: string) =>
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  const names = Object.keys(schema?.properties ?? {});
  const fromTemplate = template !== undefined && random.chance(0.7);
  const fieldCount = fromTemplate ? 0 : random.int(6);
  for (const [name, value] of Object.entries(fromTemplate ? template.fields : {})) {
    if (!random.chance(0.1)) field(name, fieldValue(value, random, ctx));
  }
  for (let i = 0; i < fieldCount; i++) {
    const name = random.pick(names.length && random.chance(0.5) ? names : FIELD_NAMES);
    const value = random.chance(0.6)
      ? asText(valueFor(schema?.properties?.[name] ?? { format: random.pick(['uuid', 'email', '']) }, ctx))
      : asText(random.pick(HOSTILE_VALUES)).slice(0, 70_000);
    field(name, value);
  }
  const fileCount = random.int(3);
  for (let i = 0; i < fileCount; i++) {
    const fileField = template && random.chance(0.8) ? template.fileField : random.pick(FILE_FIELDS);
    const filename = random.pick(['a.png', '', '../../x.pdf', '😀\u0000.jpg', 'x'.repeat(600)]);
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filename}"\r\n` +
          `Content-Type: ${random.pick(['image/png', 'application/pdf', 'application/json', 'text/html'])}\r\n\r\n`,
      ),
      (fromTemplate && !ctx.edgy && random.chance(0.7) ? random.pick(VALID_FILES) : random.pick(FILES))(),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const whole = Buffer.concat(parts);
  const shape = random.int(10);
  if (shape === 0) {
    return {
      headers: { 'content-type': 'multipart/form-data' },
      body: whole,
      note: 'multipart without boundary',
    };
  }
  if (shape === 1) {
    return {
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: whole.subarray(0, Math.max(1, random.int(whole.length))),
      note: 'multipart cut off',
    };
  }
  if (shape === 2) {
    return {
      headers: { 'content-type': 'multipart/form-data; boundary=never-appears' },
      body: whole,
      note: 'multipart with a boundary that never appears',
    };
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: whole,
    note: `multipart ${fromTemplate ? 'form' : `of ${fieldCount} fields`} and ${fileCount} files`,
  };
}
