import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../http/security-headers.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

// The shape of @ohif/app's dist/index.html (absolute paths, two inline scripts, the service worker).
const INDEX =
  '<!doctype html><html lang="en"><head><meta name="msapplication-TileImage" content="/assets/tile.png">' +
  '<script>console.time("scriptToView"),window.PUBLIC_URL="/"</script><link rel="manifest" href="/manifest.json">' +
  '<script rel="preload" as="script" src="/app-config.js"></script>' +
  '<script rel="preload" as="script" type="module" src="/init-service-worker.js"></script><title>OHIF Viewer</title>' +
  '<script>function browserImportFunction(n){return import(n)}window.PUBLIC_URL="/"</script>' +
  '<script defer src="/app.bundle.0123456789abcdef.js"></script><link href="/app.bundle.css" rel="stylesheet">' +
  '</head><body><div id="root"></div></body></html>';

let dist: string;
let server: TTestServer;
let missing: TTestServer;
const PUBLIC_URL = 'https://ris.example';

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'ris-ohif-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'app.bundle.0123456789abcdef.js'), 'console.log("ohif")');
  await writeFile(path.join(dist, 'app.bundle.css'), 'body{}');
  await writeFile(path.join(dist, '0ddf166f7a343eda.wasm'), Buffer.from([0, 97, 115, 109]));
  await writeFile(path.join(dist, 'assets', 'tile.png'), Buffer.from([137, 80, 78, 71]));
  await writeFile(path.join(dist, 'ris-ohif.json'), '{}');
  [server, missing] = await Promise.all([
    startTestServer({ env: { VIEWER_OHIF_DIST_DIR: dist, PUBLIC_URL } }),
    startTestServer({ env: { VIEWER_OHIF_DIST_DIR: path.join(dist, 'absent') } }),
  ]);
});

afterAll(async () => {
  await Promise.all([server.close(), missing.close()]);
  await rm(dist, { recursive: true, force: true });
});

const sha = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

describe('the built-in OHIF under /viewer/', () => {
  it('serves index.html rewritten for /viewer/, never cached, for the root and for OHIF’s own routes', async () => {
    for (const url of [
      '/viewer/',
      '/viewer',
      '/viewer/index.html',
      '/viewer/viewer?StudyInstanceUIDs=1.2.3',
    ]) {
      const response = await server.request('GET', url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toContain('text/html');
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      const html = response.text;
      expect(html).toContain('window.PUBLIC_URL="/viewer/"');
      expect(html).not.toContain('window.PUBLIC_URL="/"');
      expect(html).toContain('src="/viewer/app.bundle.0123456789abcdef.js"');
      expect(html).toContain('src="/viewer/app-config.js"');
      expect(html).toContain('href="/viewer/manifest.json"');
      expect(html).toContain('content="/viewer/assets/tile.png"');
      expect(html).not.toContain('init-service-worker');
      expect(html).not.toMatch(/(src|href)="\/(?!viewer\/)/);
    }
  });

  it('gives the viewer its own policy (inline scripts by hash, wasm, blob: workers, COEP) and keeps the app’s elsewhere', async () => {
    const response = await server.request('GET', '/viewer/viewer');
    const policy = response.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]+)/.exec(policy)?.[1] ?? '';
    expect(scriptSrc.split(' ').sort()).toEqual(
      [
        "'self'",
        "'wasm-unsafe-eval'",
        sha('console.time("scriptToView"),window.PUBLIC_URL="/viewer/"'),
        sha('function browserImportFunction(n){return import(n)}window.PUBLIC_URL="/viewer/"'),
      ].sort(),
    );
    expect(policy).not.toContain("'unsafe-eval'");
    expect(policy).toContain("worker-src 'self' blob:");
    expect(policy).toContain("connect-src 'self' data: blob:");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    const app = await server.request('GET', '/');
    const appPolicy = app.headers.get('content-security-policy') ?? '';
    expect(appPolicy).toContain(`script-src ${(CONTENT_SECURITY_POLICY['script-src'] ?? []).join(' ')};`);
    expect(appPolicy).not.toContain('wasm-unsafe-eval');
    expect(app.headers.get('cross-origin-embedder-policy')).toBeNull();
  });

  it('writes app-config.js itself: one DICOMweb source, the RIS’s proxy, routerBasename /viewer', async () => {
    const response = await server.request('GET', '/viewer/app-config.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const sandbox: { window: { config?: Record<string, unknown> } } = { window: {} };
    vm.runInNewContext(response.text, sandbox);
    const config = sandbox.window.config ?? {};
    expect(config.routerBasename).toBe('/viewer');
    expect(config.showStudyList).toBe(false);
    expect(config.investigationalUseDialog).toEqual({ option: 'never' });
    expect(config).not.toHaveProperty('dangerouslyUseDynamicConfig');
    const sources = config.dataSources as Array<{
      sourceName: string;
      configuration: Record<string, unknown>;
    }>;
    expect(sources).toHaveLength(1);
    expect(sources[0]?.configuration).toMatchObject({
      qidoRoot: `${PUBLIC_URL}/dicom-web`,
      wadoRoot: `${PUBLIC_URL}/dicom-web`,
      wadoUriRoot: `${PUBLIC_URL}/dicom-web`,
    });
    expect(config.defaultDataSourceName).toBe(sources[0]?.sourceName);
  });

  it('serves the build’s files: hashed ones cached for a year, the others revalidated; missing ones 404', async () => {
    const bundle = await server.request('GET', '/viewer/app.bundle.0123456789abcdef.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text).toBe('console.log("ohif")');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bundle.headers.get('content-security-policy')).toContain('wasm-unsafe-eval');
    const wasm = await server.request('GET', '/viewer/0ddf166f7a343eda.wasm');
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await server.request('GET', '/viewer/app.bundle.css');
    expect(css.headers.get('cache-control')).toBe('no-cache');
    expect((await server.request('GET', '/viewer/assets/tile.png')).status).toBe(200);
    for (const url of ['/viewer/missing.js', '/viewer/ris-ohif.json', '/viewer/assets/none.png']) {
      const response = await server.request('GET', url);
      expect(response.status, url).toBe(404);
      expect(response.json, url).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('says how to install the viewer when the server has none (503)', async () => {
    const response = await missing.request('GET', '/viewer/viewer?StudyInstanceUIDs=1.2');
    expect(response.status).toBe(503);
    expect(response.json).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(response.text).toContain('npm run fetch:ohif');
  });
});
