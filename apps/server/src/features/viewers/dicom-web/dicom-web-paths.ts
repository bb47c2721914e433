// Which DICOMweb reads the proxy lets through: those of ONE study, named in the path (or, for QIDO
// at /studies, by exactly one StudyInstanceUID). Everything else is refused here, before any access
// check or archive call: unknown shapes 404, malformed UIDs, encoded characters, dot segments and
// queries that are not about one study 400.

/** A DICOM UID: digits and dots, no empty component, at most 64 characters. */
export const UID_PATTERN = /^[0-9]+(\.[0-9]+)*$/;
const UID_MAX = 64;
const FRAMES = /^[1-9][0-9]{0,5}(,[1-9][0-9]{0,5}){0,99}$/;
const TAG_SEGMENT = /^[0-9A-Fa-f]{1,8}$/;
const QUERY_KEY = /^[A-Za-z0-9_.]{1,64}$/;
const MAX_QUERY_VALUE = 1024;
const STUDY_UID_KEYS = new Set(['studyinstanceuid', '0020000d']);
const RENDERINGS = new Set(['rendered', 'thumbnail']);

/**
 * What a request asks the archive for:
 * - `json`: QIDO-RS or metadata (answered as DICOM JSON, whose archive URLs the proxy rewrites);
 * - `binary`: instances, frames, bulk data, rendered images (streamed as they come).
 */
export type TDicomWebRead = {
  /** The Weasis pass in /dicom-web/t/<pass>/…, or null (the viewer cookie then applies). */
  pass: string | null;
  studyUid: string;
  /** The path below the archive's DICOMweb root, e.g. /studies/1.2/series/3.4/metadata. */
  archivePath: string;
  query: URLSearchParams;
  kind: 'json' | 'binary';
};

export type TParsedRead =
  { ok: true; read: TDicomWebRead } | { ok: false; status: 400 | 404; message: string };

const bad = (message: string): TParsedRead => ({ ok: false, status: 400, message });
const unknown = (): TParsedRead => ({
  ok: false,
  status: 404,
  message: 'Not a DICOMweb read of one study',
});

function isUid(value: string): boolean {
  return value.length <= UID_MAX && UID_PATTERN.test(value);
}

/** The kind of read of the segments after /studies/<uid>, or null when the shape is not allowed. */
function kindOf(rest: readonly string[]): 'json' | 'binary' | 'uid' | null {
  // rest: what follows /studies/<uid>; UIDs in it are checked by the caller ('uid' marks a bad one).
  const [a, b, c, d, e, f, g, ...more] = rest;
  if (a === undefined) return 'binary';
  if (b === undefined) {
    if (a === 'metadata' || a === 'series' || a === 'instances') return 'json';
    return RENDERINGS.has(a) ? 'binary' : null;
  }
  if (a !== 'series') return null;
  if (!isUid(b)) return 'uid';
  if (c === undefined) return 'binary';
  if (d === undefined) {
    if (c === 'metadata' || c === 'instances') return 'json';
    return RENDERINGS.has(c) ? 'binary' : null;
  }
  if (c !== 'instances') return null;
  if (!isUid(d)) return 'uid';
  if (e === undefined) return 'binary';
  if (f === undefined) {
    if (e === 'metadata') return 'json';
    return RENDERINGS.has(e) ? 'binary' : null;
  }
  if (e === 'frames') {
    if (!FRAMES.test(f)) return null;
    if (g === undefined) return 'binary';
    return more.length === 0 && RENDERINGS.has(g) ? 'binary' : null;
  }
  if (e === 'bulk' || e === 'bulkdata') {
    const tags = [f, ...(g === undefined ? [] : [g]), ...more];
    return tags.length <= 16 && tags.every((tag) => TAG_SEGMENT.test(tag)) ? 'binary' : null;
  }
  return null;
}

/** The query passed to the archive: simple keys, bounded values, never another study. */
function checkedQuery(search: string, studyUid: string | null): URLSearchParams | string {
  const query = new URLSearchParams(search);
  let studyKeys = 0;
  for (const [key, value] of query) {
    if (!QUERY_KEY.test(key)) return `query parameter "${key.slice(0, 64)}" is not allowed`;
    if (value.length > MAX_QUERY_VALUE) return `query parameter "${key}" is too long`;
    if (STUDY_UID_KEYS.has(key.toLowerCase())) {
      studyKeys += 1;
      if (!isUid(value)) return 'StudyInstanceUID must be one DICOM UID';
      if (studyUid !== null && value !== studyUid) return 'StudyInstanceUID must be the study of the path';
    }
  }
  if (studyUid === null && studyKeys !== 1) return 'a study search needs exactly one StudyInstanceUID';
  return query;
}

/**
 * Parses the raw request URL below /dicom-web (e.g. `/studies/1.2/series?includefield=all`), still
 * percent-encoded as it came: any `%` in the path is refused, so encoded slashes or dots never
 * reach the archive.
 */
export function parseDicomWebRead(rawUrl: string): TParsedRead {
  const questionMark = rawUrl.indexOf('?');
  const rawPath = questionMark === -1 ? rawUrl : rawUrl.slice(0, questionMark);
  const search = questionMark === -1 ? '' : rawUrl.slice(questionMark + 1);
  if (!rawPath.startsWith('/')) return unknown();
  if (rawPath.includes('%') || rawPath.includes('\\'))
    return bad('encoded characters are not allowed in the path');
  let segments = rawPath.slice(1).split('/');
  if (segments.at(-1) === '') segments = segments.slice(0, -1);
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    return bad('empty or dot segments are not allowed in the path');
  let pass: string | null = null;
  if (segments[0] === 't') {
    const [, given, ...rest] = segments;
    if (!given) return unknown();
    pass = given;
    segments = rest;
  }
  const [root, studyUid, ...rest] = segments;
  if (root !== 'studies') return unknown();
  if (studyUid === undefined) {
    const query = checkedQuery(search, null);
    if (typeof query === 'string') return bad(query);
    const uid = [...query].find(([key]) => STUDY_UID_KEYS.has(key.toLowerCase()))?.[1] ?? '';
    return { ok: true, read: { pass, studyUid: uid, archivePath: '/studies', query, kind: 'json' } };
  }
  if (!isUid(studyUid)) return bad('the study UID in the path is not a DICOM UID');
  const kind = kindOf(rest);
  if (kind === 'uid') return bad('a series or instance UID in the path is not a DICOM UID');
  if (kind === null) return unknown();
  const query = checkedQuery(search, studyUid);
  if (typeof query === 'string') return bad(query);
  const archivePath = `/${['studies', studyUid, ...rest].join('/')}`;
  return { ok: true, read: { pass, studyUid, archivePath, query, kind } };
}
