// Signed passes of the built-in viewer. A browser tab running OHIF has no bearer token, and Weasis
// none either, so GET /dicom/viewer (bearer) hands out a pass instead:
// - ticket: ≤ 60 s, one study, in the /viewer/open link; exchanged there for
// - cookie: the viewer tab's session (VIEWER_SESSION_HOURS), HttpOnly, Path=/dicom-web;
// - weasis: one study, in the DICOMweb path Weasis is given (/dicom-web/t/<pass>/studies/<uid>/…).
// A pass names the user and the sign-in session it came from; every proxy request still checks that
// session with the token verifier (user ACTIVE, session live, same organisation, issued after
// tokens_valid_after) and the study against the user's current scope. The key is derived from the
// identity token secret (never used as is); the kind is signed, so no pass serves as another kind.
import { deriveLinkKey, LinkSigner } from '../../auth/signed-links.ts';
import type { TSessionClaims } from '../../auth/principal.ts';
import type { TConfig } from '../../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks the built-in viewer's tickets, cookies and Weasis passes (features/viewers). */
    viewerPasses: ViewerPasses;
  }
}

export type TPassKind = 'ticket' | 'cookie' | 'weasis';

/** What a pass carries. */
export type TViewerPass = {
  kind: TPassKind;
  userId: string;
  sessionId: string;
  organisationId: string | null;
  /** `iat` of the ID token the pass was made from (seconds): tokens_valid_after applies to it. */
  issuedAt: number;
  /** Seconds since the epoch. */
  expires: number;
  /** The one study a ticket or Weasis pass is for; null for the cookie. */
  studyUid: string | null;
};

export const TICKET_SECONDS = 60;
export const WEASIS_PASS_SECONDS = 30 * 60;
/** The viewer cookie; the browser sends it to the DICOMweb proxy only. */
export const VIEWER_COOKIE = 'ris_viewer';
export const VIEWER_COOKIE_PATH = '/dicom-web';

const KEY_LABEL = 'ris/viewer-pass/v1';
const MAX_PASS_LENGTH = 1024;

type TWire = { k: TPassKind; u: string; s: string; o: string | null; i: number; x: number; d: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UID = /^[0-9]+(\.[0-9]+)*$/;

/** A pass's fields, each of its exact shape (so no field can hold the signer's '|' separator). */
function isWire(value: unknown): value is TWire {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const matches = (pattern: RegExp, field: unknown) => typeof field === 'string' && pattern.test(field);
  return (
    (v.k === 'ticket' || v.k === 'cookie' || v.k === 'weasis') &&
    matches(UUID, v.u) &&
    matches(UUID, v.s) &&
    (v.o === null || matches(UUID, v.o)) &&
    Number.isInteger(v.i) &&
    Number.isInteger(v.x) &&
    (v.d === null || (matches(UID, v.d) && String(v.d).length <= 64))
  );
}

/** The signed fields of a pass (its expiry is signed with them). */
function fieldsOf(wire: TWire): string[] {
  return [wire.k, wire.u, wire.s, wire.o ?? '', String(wire.i), wire.d ?? ''];
}

export class ViewerPasses {
  readonly #signer: LinkSigner;
  readonly #now: () => number;
  readonly cookieSeconds: number;

  constructor(key: Buffer, cookieSeconds: number, now: () => number = () => Date.now()) {
    this.#now = now;
    this.#signer = new LinkSigner(key, cookieSeconds, () => new Date(this.#now()));
    this.cookieSeconds = cookieSeconds;
  }

  /** A pass of `kind` for a session, valid `seconds` from now: `<base64url JSON>.<hex HMAC>`. */
  issue(
    kind: TPassKind,
    session: Pick<TViewerPass, 'userId' | 'sessionId' | 'organisationId' | 'issuedAt' | 'studyUid'>,
    seconds: number,
  ): string {
    const wire: TWire = {
      k: kind,
      u: session.userId,
      s: session.sessionId,
      o: session.organisationId,
      i: session.issuedAt,
      x: Math.floor(this.#now() / 1000) + seconds,
      d: session.studyUid,
    };
    const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
    return `${body}.${this.#signer.sign(fieldsOf(wire), wire.x)}`;
  }

  /** The pass, when `value` is a well-signed, unexpired pass of `kind`; else null. */
  verify(kind: TPassKind, value: string | undefined | null): TViewerPass | null {
    if (!value || value.length > MAX_PASS_LENGTH) return null;
    const dot = value.indexOf('.');
    if (dot < 1 || value.indexOf('.', dot + 1) !== -1) return null;
    let wire: unknown;
    try {
      wire = JSON.parse(Buffer.from(value.slice(0, dot), 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!isWire(wire) || wire.k !== kind) return null;
    if (!this.#signer.verify(fieldsOf(wire), wire.x, value.slice(dot + 1))) return null;
    return {
      kind: wire.k,
      userId: wire.u,
      sessionId: wire.s,
      organisationId: wire.o,
      issuedAt: wire.i,
      expires: wire.x,
      studyUid: wire.d,
    };
  }
}

/**
 * The session claims a pass stands for, checked by the token verifier like an ID token's. A pass
 * carries neither e-mail nor facility list (the proxy needs neither; scope is read afresh).
 */
export function sessionClaimsOf(pass: TViewerPass): TSessionClaims {
  return {
    sub: pass.userId,
    sid: pass.sessionId,
    org: pass.organisationId,
    iat: pass.issuedAt,
    email: '',
    fac: [],
  };
}

/** The app's passes: the key is derived from the identity token secret (auth/signed-links.ts), so replicas agree. */
export async function createViewerPasses(config: TConfig): Promise<ViewerPasses> {
  return new ViewerPasses(await deriveLinkKey(config, KEY_LABEL), config.viewers.sessionSeconds);
}
