// Signed passes of the built-in viewer. A browser tab running OHIF has no bearer token, and Weasis
// none either, so GET /dicom/viewer (bearer) hands out a pass instead:
// - ticket: ≤ 60 s, one study, in the /viewer/open link; exchanged there for
// - cookie: the viewer tab's session (VIEWER_SESSION_HOURS), HttpOnly, Path=/dicom-web;
// - weasis: one study, in the DICOMweb path Weasis is given (/dicom-web/t/<pass>/studies/<uid>/…).
// A pass names the user and the sign-in session it came from; every proxy request still checks that
// session with the token verifier (user ACTIVE, session live, same organisation, issued after
// tokens_valid_after) and the study against the user's current scope. The key is derived from the
// identity token secret (never used as is); the kind is signed, so no pass serves as another kind.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { resolveTokenSecret } from '../../auth/token-secret.ts';
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

function isWire(value: unknown): value is TWire {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    (v.k === 'ticket' || v.k === 'cookie' || v.k === 'weasis') &&
    typeof v.u === 'string' &&
    typeof v.s === 'string' &&
    (v.o === null || typeof v.o === 'string') &&
    Number.isInteger(v.i) &&
    Number.isInteger(v.x) &&
    (v.d === null || typeof v.d === 'string')
  );
}

export class ViewerPasses {
  readonly #key: Buffer;
  readonly #now: () => number;
  readonly cookieSeconds: number;

  constructor(key: Buffer, cookieSeconds: number, now: () => number = () => Date.now()) {
    this.#key = key;
    this.cookieSeconds = cookieSeconds;
    this.#now = now;
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest();
  }

  #nowSeconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** A pass of `kind` for a session, valid `seconds` from now. */
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
      x: this.#nowSeconds() + seconds,
      d: session.studyUid,
    };
    const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
    return `${body}.${this.#mac(body).toString('base64url')}`;
  }

  /** The pass, when `value` is a well-signed, unexpired pass of `kind`; else null. */
  verify(kind: TPassKind, value: string | undefined | null): TViewerPass | null {
    if (!value || value.length > MAX_PASS_LENGTH) return null;
    const dot = value.indexOf('.');
    if (dot < 1 || value.indexOf('.', dot + 1) !== -1) return null;
    const body = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), 'base64url');
    const expected = this.#mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let wire: unknown;
    try {
      wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!isWire(wire) || wire.k !== kind || wire.x < this.#nowSeconds()) return null;
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

/** The app's passes: the key is HMAC(identity token secret, label), so replicas sharing it agree. */
export async function createViewerPasses(config: TConfig): Promise<ViewerPasses> {
  const secret = await resolveTokenSecret(config.auth.tokenSecret, config.dataDir);
  const key = createHmac('sha256', secret.secret).update(KEY_LABEL).digest();
  return new ViewerPasses(key, config.viewers.sessionSeconds);
}
