#!/usr/bin/env node
// What a production install of the RIS contains, in one place: the Dockerfile runs this script and
// copies its output into the image, and CI's production-install check (.ci/run, scripts/check-
// production-install.mjs) runs the same script into an empty folder and starts the server from it.
//
//   node scripts/stage-production.mjs <empty-or-new-dir>     (after `npm ci`, which builds)
//
// It copies the lockfile, every workspace's package.json and the built files the server reads at run
// time, then runs `npm ci --omit=dev` for the server's workspace: its dependencies and those of the
// workspaces it imports (@ris/domain, @ris/editor), without the web app's (bundled into
// apps/web/dist) or any development tool (the `node` package pinning Node 24 is one: the image
// brings its own Node 24). The root package.json keeps only `start`: its `prepare` builds from the
// sources, which a production install does not have.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The workspaces npm must find (the lockfile names them all), and what each brings besides package.json. */
const WORKSPACES = {
  'packages/domain': ['dist'],
  'packages/editor': ['dist'],
  // dist: the server, its worker threads, the viewer agent it hands out, the compile cache and the
  // migrated PGlite snapshot of a first embedded start; drizzle: migrations, applied at start-up;
  // vendor/ohif: the built-in viewer (scripts/fetch-ohif.mjs).
  'apps/server': ['dist', 'drizzle', 'vendor/ohif'],
  'apps/web': ['dist'],
  e2e: [],
};

/** Built or fetched files the server cannot run without: a build that did not finish stops here. */
const REQUIRED = [
  'packages/domain/dist/index.js',
  'packages/editor/dist/index.js',
  'apps/server/dist/main.js',
  'apps/server/dist/pglite-snapshot/PG_VERSION',
  'apps/server/drizzle/meta/_journal.json',
  'apps/web/dist/index.html',
];

/** Copied files that only development needs: benchmarks, and drizzle-kit's schema snapshots. */
function wanted(source) {
  const relative = path.relative(root, source).split(path.sep).join('/');
  if (relative === 'apps/server/dist/bench') return false;
  return !/^apps\/server\/drizzle\/meta\/\d+_snapshot\.json$/.test(relative);
}

function fail(message) {
  process.stderr.write(`[stage-production] ${message}\n`);
  process.exit(1);
}

const target = process.argv[2];
if (!target) fail('usage: node scripts/stage-production.mjs <empty-or-new-dir>');
const out = path.resolve(target);
if (existsSync(out) && readdirSync(out).length > 0) fail(`${out} is not empty`);
for (const file of REQUIRED) {
  if (!existsSync(path.join(root, file))) fail(`${file} is missing: run \`npm ci\` (it builds) first`);
}
if (!existsSync(path.join(root, 'apps/server/vendor/ohif/index.html'))) {
  if (process.env.RIS_REQUIRE_OHIF === '1')
    fail('apps/server/vendor/ohif is missing (npm run fetch:ohif -w @ris/server)');
  process.stderr.write('[stage-production] no built OHIF: the install will have no built-in viewer\n');
}

const started = Date.now();
mkdirSync(out, { recursive: true });
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
rootPackage.scripts = { start: rootPackage.scripts.start };
writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(rootPackage, null, 2)}\n`);
cpSync(path.join(root, 'package-lock.json'), path.join(out, 'package-lock.json'));
for (const [workspace, folders] of Object.entries(WORKSPACES)) {
  mkdirSync(path.join(out, workspace), { recursive: true });
  cpSync(path.join(root, workspace, 'package.json'), path.join(out, workspace, 'package.json'));
  for (const folder of folders) {
    const source = path.join(root, workspace, folder);
    if (existsSync(source))
      cpSync(source, path.join(out, workspace, folder), { recursive: true, filter: wanted });
  }
}

// npm itself is a Node script: run it on the Node running this script (24), not whichever is first
// on PATH, so the install scripts of native packages see the Node the server runs on. The tarballs
// come from npm's cache when it holds them (after `npm ci` it holds every one), the registry otherwise.
execFileSync(
  'npm',
  ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--workspace=@ris/server'],
  {
    cwd: out,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_prefer_offline: 'true',
    },
  },
);
process.stdout.write(`[stage-production] ${out} in ${Date.now() - started} ms\n`);
