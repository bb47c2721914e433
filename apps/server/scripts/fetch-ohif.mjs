#!/usr/bin/env node
// Fetches the built OHIF 3 viewer that the @ohif/app npm package ships (its dist/ folder) into
// apps/server/vendor/ohif/, which the server serves under /viewer/ (features/viewers/ohif). The
// package is not a dependency (it would bring React 18, webpack, …): `npm pack` downloads its tarball
// (through npm's cache), the tarball must match the pinned sha512 integrity, and only package/dist is
// extracted, without source maps, the onnx runtime of the AI segmentation tools (ort/, 114 MB) and
// the files of OHIF's own deployments (service worker, Netlify/serve rules, its app-config.js: the
// server writes its own). The build assumes it is served at '/': webpack's public path and a few
// absolute paths are rewritten to /viewer/ here, each replacement checked so a new version that
// changes them fails loudly instead of serving a viewer that loads nothing.
//
// Runs from the server's build (npm ci → prepare → build), and does nothing when the folder already
// holds this version. `node scripts/fetch-ohif.mjs --force` fetches again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const OHIF_PACKAGE = '@ohif/app';
export const OHIF_VERSION = '3.13.2';
/** `npm view @ohif/app@3.13.2 dist.integrity` */
export const OHIF_INTEGRITY =
  'sha512-WZdxmpmG7rqFgW9ZJLcbgr3XCtLi1KDNPoMaeY5PPe6j4G4fjEjjkycZM6C6Zk2F87BKxFfpq+jd5xXZB9E8EA==';
/** Where the viewer is served (features/viewers/ohif/ohif-static.ts mounts the folder there). */
export const OHIF_BASE = '/viewer/';
/** The file that says which version the folder holds. */
export const MARKER = 'ris-ohif.json';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(serverRoot, 'vendor', 'ohif');

const EXCLUDED = [
  '*.map',
  'package/dist/ort',
  'package/dist/sw.js',
  'package/dist/init-service-worker.js',
  'package/dist/app-config.js',
  'package/dist/_headers',
  'package/dist/_redirects',
  'package/dist/serve.json',
];

/**
 * Absolute paths of the build → under OHIF_BASE. `files`: which files hold them; `min`: how many
 * files must contain the text (a new OHIF version that drops one fails here).
 */
const REWRITES = [
  // webpack's public path, in the main bundle and in the bundles of its web workers.
  {
    files: /\.js$/,
    from: '__webpack_require__.p = "/";',
    to: `__webpack_require__.p = "${OHIF_BASE}";`,
    min: 4,
  },
  // The font of the main stylesheet.
  { files: /\.css$/, from: 'url(/', to: `url(${OHIF_BASE}`, min: 1 },
  // The microscopy viewer, imported by an absolute path.
  {
    files: /^app\.bundle\.[0-9a-f]+\.js$/,
    from: "'/dicom-microscopy-viewer/",
    to: `'${OHIF_BASE}dicom-microscopy-viewer/`,
    min: 1,
  },
];

/** A tarball or build that is not what this script expects: the build must stop. */
class BadPackageError extends Error {}

function log(message) {
  process.stdout.write(`[fetch-ohif] ${message}\n`);
}

function installed() {
  const marker = path.join(target, MARKER);
  if (!existsSync(marker)) return false;
  try {
    const data = JSON.parse(readFileSync(marker, 'utf8'));
    return data.version === OHIF_VERSION && data.integrity === OHIF_INTEGRITY && data.base === OHIF_BASE;
  } catch {
    return false;
  }
}

function sha512(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

function rewrite(dist) {
  for (const rule of REWRITES) {
    let count = 0;
    for (const name of readdirSync(dist)) {
      if (!rule.files.test(name)) continue;
      const file = path.join(dist, name);
      const text = readFileSync(file, 'utf8');
      if (!text.includes(rule.from)) continue;
      writeFileSync(file, text.split(rule.from).join(rule.to));
      count += 1;
    }
    if (count < rule.min) {
      throw new BadPackageError(
        `expected "${rule.from}" in at least ${rule.min} file(s) of the build, found ${count}`,
      );
    }
  }
}

function fetchOhif() {
  // Beside the target, so the finished folder is renamed into place (same file system).
  mkdirSync(path.dirname(target), { recursive: true });
  const work = mkdtempSync(path.join(path.dirname(target), '.ohif-'));
  try {
    const started = Date.now();
    const packed = execFileSync(
      'npm',
      ['pack', `${OHIF_PACKAGE}@${OHIF_VERSION}`, '--silent', '--pack-destination', work],
      { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    )
      .trim()
      .split('\n')
      .pop();
    const tarball = path.join(work, packed ?? '');
    if (!packed || !existsSync(tarball)) throw new Error('npm pack did not produce a tarball');
    const integrity = sha512(tarball);
    if (integrity !== OHIF_INTEGRITY) {
      throw new BadPackageError(`${packed}: integrity ${integrity} is not the pinned ${OHIF_INTEGRITY}`);
    }
    const extracted = path.join(work, 'dist');
    mkdirSync(extracted);
    execFileSync(
      'tar',
      [
        '-xzf',
        tarball,
        '-C',
        extracted,
        '--strip-components=2',
        ...EXCLUDED.map((pattern) => `--exclude=${pattern}`),
        'package/dist',
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (!existsSync(path.join(extracted, 'index.html')))
      throw new BadPackageError('the package has no dist/index.html');
    rewrite(extracted);
    writeFileSync(
      path.join(extracted, MARKER),
      `${JSON.stringify({ package: OHIF_PACKAGE, version: OHIF_VERSION, integrity: OHIF_INTEGRITY, base: OHIF_BASE }, null, 2)}\n`,
    );
    rmSync(target, { recursive: true, force: true });
    renameSync(extracted, target);
    log(
      `${OHIF_PACKAGE}@${OHIF_VERSION} in ${path.relative(process.cwd(), target) || target} (${Date.now() - started} ms)`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const force = process.argv.includes('--force');
if (!force && installed()) {
  log(`${OHIF_PACKAGE}@${OHIF_VERSION} already in ${path.relative(process.cwd(), target) || target}`);
} else {
  try {
    fetchOhif();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // An integrity mismatch or a build this script does not understand must stop the build; a
    // registry out of reach leaves the RIS working without its built-in viewer (it says so at /viewer/).
    if (error instanceof BadPackageError || process.env.RIS_REQUIRE_OHIF === '1') {
      process.stderr.write(`[fetch-ohif] ${message}\n`);
      process.exit(1);
    }
    process.stderr.write(
      `[fetch-ohif] could not fetch ${OHIF_PACKAGE}@${OHIF_VERSION} (${message}); the built-in viewer is unavailable until \`npm run fetch:ohif -w @ris/server\` succeeds\n`,
    );
  }
}
