// Inputs of the API fuzz suite (api-fuzz.test.ts): a seeded PRNG, values generated from the
// OpenAPI document's JSON schemas, and the hostile values and mutations a careless or malicious
// client sends. Deterministic for a seed: a failure is reproduced by running the suite again.

/** mulberry32: a small, fast, seeded PRNG (32-bit state). */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type TRandom = ReturnType<typeof seeded>;

/** The part of JSON Schema the OpenAPI document uses. */
export type TSchema = {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  allOf?: TSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
};

/** What values may refer to: ids of real records (of the caller's and other organisations). */
export type TValueContext = {
  random: TRandom;
  ids: readonly string[];
  resolve: (ref: string) => TSchema;
  /** Awkward text, dates and numbers within the schema's bounds (else plain valid-looking values). */
  edgy: boolean;
};

const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Values no field expects: wrong types, extremes, injections, bad text, deep nesting. */
export const HOSTILE_VALUES: readonly unknown[] = [
  '',
  ' ',
  'x'.repeat(20_000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff tail',
  '😀'.repeat(2_000),
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '%00%zz%',
  '9'.repeat(400),
  '-1',
  '1e309',
  'NaN',
  'true',
  'null',
  '2024-02-30',
  '0000-00-00T00:00:00Z',
  '99999-12-31',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'a@b',
  'Europe/Atlantis',
  -1,
  0,
  1.5,
  2 ** 53 + 2,
  1e308,
  -1e308,
  true,
  false,
  null,
  [],
  [null],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  nested(3_000),
  Array.from({ length: 5_000 }, (_, i) => i),
];

/** A valid-looking value for a schema (ids from the context for uuid fields). */
export function valueFor(schema: TSchema, ctx: TValueContext, depth = 0): unknown {
  const { random } = ctx;
  if (schema.$ref) return valueFor(ctx.resolve(schema.$ref), ctx, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return random.pick(schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return valueFor(random.pick(choices), ctx, depth);
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => valueFor(part, ctx, depth)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string'];
  const type = random.pick(
    types.filter((t) => t !== 'null').length ? types.filter((t) => t !== 'null') : types,
  );
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (depth < 4 && (schema.required?.includes(key) || random.chance(0.6))) {
          out[key] = hintFor(key, property, ctx) ?? valueFor(property, ctx, depth + 1);
        }
      }
      return out;
    }
    case 'array': {
      const length = Math.max(schema.minItems ?? 0, random.int(3));
      return Array.from({ length: Math.min(length, schema.maxItems ?? 3) }, () =>
        valueFor(schema.items ?? {}, ctx, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? 0;
      const high = schema.maximum ?? low + 100;
      // The bounds themselves, and values far out when the schema sets no bound.
      if (random.chance(0.3)) {
        return random.pick([low, high, schema.maximum ?? Number.MAX_SAFE_INTEGER, schema.minimum ?? -1]);
      }
      const value = low + random.next() * (high - low);
      return type === 'integer' ? Math.round(value) : value;
    }
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    default:
      return stringFor(schema, ctx);
  }
}

/** Text within a schema's bounds that is still awkward: NUL, lone surrogates, RTL, markup, quotes. */
const EDGY_TEXT = [
  'a\u0000b',
  '\ud800x',
  '😀👩‍⚕️',
  '\u202eevil\u202c',
  '\u200b',
  '   ',
  '<img src=x onerror=alert(1)>',
  'O\'Brien"; DROP TABLE studies; --',
  '%s%n%x',
  '\\..\\..',
  'ÅÄÖ ß İı',
];

const EDGY_DATES = ['2024-02-29', '1900-01-01', '9999-12-31', '0001-01-01'];
const EDGY_TIMES = [
  '2024-05-17T10:30:00+14:00',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2024-03-31T02:30:00+01:00',
];

function stringFor(schema: TSchema, ctx: TValueContext): string {
  const { random } = ctx;
  const edgy = ctx.edgy && random.chance(0.5);
  switch (schema.format) {
    case 'uuid':
      return random.pick(ctx.ids);
    case 'email':
      return edgy
        ? random.pick(['a\u0000@clinic.test', 'ÅÄ@clinic.test', `${'a'.repeat(64)}@clinic.test`])
        : `fuzz${random.int(1000)}@clinic.test`;
    case 'date':
      return edgy ? random.pick(EDGY_DATES) : '2024-05-17';
    case 'date-time':
      return edgy ? random.pick(EDGY_TIMES) : '2024-05-17T10:30:00.000Z';
    default: {
      const min = schema.minLength ?? 1;
      const max = schema.maxLength ?? 200;
      if (edgy) {
        const text = random.chance(0.3) ? 'x'.repeat(max) : random.pick(EDGY_TEXT);
        return text.padEnd(min, 'z').slice(0, max);
      }
      const length = Math.max(min, Math.min(max, 12));
      return random.pick(['Fuzz', '<p>Fuzz</p>', 'CT', 'fuzz value']).padEnd(length, 'z').slice(0, max);
    }
  }
}

/** Plain-text fields whose name says what they hold (the schema gives only 'string'). */
export function hintFor(name: string, schema: TSchema, ctx: TValueContext): unknown {
  if (schema.enum || schema.format || (schema.type !== undefined && schema.type !== 'string'))
    return undefined;
  const { random } = ctx;
  if (ctx.edgy && random.chance(0.25)) return undefined;
  if (/time_zone/.test(name))
    return random.pick(['Asia/Kolkata', 'UTC', 'America/St_Johns', 'Pacific/Kiritimati']);
  if (/email/.test(name)) return `fuzz${random.int(1000)}@clinic.example`;
  if (/mobile|phone/.test(name)) return random.pick(['+919876543210', '+15555550123']);
  if (/html|content/.test(name)) {
    return random.pick([
      '<p>Fuzz</p>',
      `<p>${'Lorem ipsum dolor. '.repeat(200)}</p>`,
      '<p>a\u0000b\ud800</p>',
    ]);
  }
  if (/_date$/.test(name)) return random.pick(EDGY_DATES);
  if (/datetime|_at$/.test(name)) return random.pick(EDGY_TIMES);
  return undefined;
}

/** One mutation of a valid body: a field gets a hostile value, goes missing, or the body itself is odd. */
export function mutateBody(body: unknown, random: TRandom): { body: unknown; note: string } {
  const record: Record<string, unknown> =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
  const keys = Object.keys(record);
  const kind = random.int(9);
  if (kind < 5 && keys.length > 0) {
    const key = random.pick(keys);
    const hostile = random.pick(HOSTILE_VALUES);
    return { body: { ...record, [key]: hostile }, note: `${key}=${describe(hostile)}` };
  }
  if (kind < 6 && keys.length > 0) {
    const key = random.pick(keys);
    const { [key]: _dropped, ...rest } = record;
    return { body: rest, note: `without ${key}` };
  }
  if (kind < 7)
    return { body: { ...record, unexpected_field: random.pick(HOSTILE_VALUES) }, note: 'extra field' };
  if (kind < 9) {
    const hostile = random.pick(HOSTILE_VALUES);
    return { body: hostile, note: `body=${describe(hostile)}` };
  }
  return { body, note: 'valid-looking' };
}

/** Raw bodies that are not the JSON they claim to be. */
export const RAW_JSON_BODIES: readonly (string | Buffer)[] = [
  '{"a": ',
  '{"a": 1,}',
  '{"a": "\\ud800"}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  '',
  'null',
  '"just a string"',
  '1e999999',
];

/** encodeURIComponent, but a lone surrogate becomes the (invalid) UTF-8 of a surrogate, %ED%A0%80. */
export function encode(text: string): string {
  return text
    .split(/(\p{Cs})/u)
    .map((piece) => (/^\p{Cs}$/u.test(piece) ? '%ED%A0%80' : encodeURIComponent(piece)))
    .join('');
}

/** Path parameter values: real ids and hostile segments (already encoded for a URL). */
export function pathValue(random: TRandom, ids: readonly string[], hostile: boolean): string {
  if (!hostile) return random.pick(ids);
  return random.pick([
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%2e%2e%2f%2e%2e',
    encode('😀\u0000<x>'),
    '1',
    '-1',
    'a'.repeat(150),
    encode('x'.repeat(90)),
  ]);
}

/** A query value, encoded: valid-looking, or (hostile) broken percent-encoding or a hostile value. */
export function queryValue(value: unknown, random: TRandom, hostile: boolean): string {
  if (!hostile) return encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  if (random.chance(0.4)) return random.pick(['%zz', '%E0%A4%A', '%', '%00', '%C0%AF', '%ED%A0%80']);
  const bad = random.pick(HOSTILE_VALUES);
  return encode(typeof bad === 'string' ? bad.slice(0, 4_000) : (JSON.stringify(bad) ?? ''));
}

export function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
