// OHIF's index.html and Content-Security-Policy under /viewer/. The package's build assumes it is
// served at '/': its index.html names every file by an absolute path and sets window.PUBLIC_URL="/"
// (read by OHIF for its router and lazily loaded libraries); scripts/fetch-ohif.mjs already rewrote
// webpack's public path in the bundles. The page here points everything at /viewer/, drops the
// script that unregisters every service worker of the origin (the RIS's included), and the policy
// allows exactly its two inline scripts by hash.
import { createHash } from 'node:crypto';

export const OHIF_BASE = '/viewer/';

export type TOhifIndex = { html: string; inlineScriptHashes: string[] };

const SERVICE_WORKER_SCRIPT = /<script[^>]*\ssrc="\/init-service-worker\.js"[^>]*><\/script>/g;

/** index.html of the package, served under OHIF_BASE. */
export function rewriteOhifIndex(original: string): TOhifIndex {
  const html = original
    .replace(SERVICE_WORKER_SCRIPT, '')
    .replaceAll('window.PUBLIC_URL="/"', `window.PUBLIC_URL="${OHIF_BASE}"`)
    .replace(/(\s(?:href|src|content))="\/(?!\/)/g, `$1="${OHIF_BASE}`);
  const inlineScriptHashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
  return { html, inlineScriptHashes };
}

/**
 * The viewer's policy: its own scripts and the inline ones of index.html by hash; WebAssembly
 * codecs ('wasm-unsafe-eval', not 'unsafe-eval'); web workers from its files or blob: URLs; images
 * and data from the RIS only (the DICOMweb proxy is same-origin); not framable.
 */
export function ohifContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'", ...inlineScriptHashes],
    'worker-src': ["'self'", 'blob:'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'frame-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}
