#!/usr/bin/env node
// ris-viewer-agent: the small companion a radiologist runs on their workstation so the RIS can open
// a study in a desktop viewer (RadiAnt on Windows, Horos on macOS, the system's handler elsewhere).
// One file with Node's own modules only: `node ris-viewer-agent.js --ris https://ris.example`.
//
// It listens on 127.0.0.1:8843 (spec §7: "a local viewer server on port 8843 returns an access
// token") and answers only pages of the RIS it was started for (Origin check, CORS, Chrome's Private
// Network Access preflight). GET / answers its token; POST /open with that token and a study zip URL
// of the same RIS (the signed, short-lived GET /dicom/get-dicom-zip-url link) downloads the zip into
// its folder and hands it to the viewer. It never downloads from anywhere else and keeps no RIS
// credential: the signed link is the only thing it is given.
import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import type { ReadableStream as TWebStream } from 'node:stream/web';

export const VIEWER_AGENT_PORT = 8843;
export const VIEWER_AGENT_VERSION = '1.0.0';
const ZIP_PATH = /^\/api\/v1\/dicom\/zip\/[0-9a-f-]{36}$/;
const UID = /^[0-9]+(\.[0-9]+)*$/;
const MAX_BODY_BYTES = 16_384;
const HOST = /^[A-Za-z0-9.-]{1,253}$|^[0-9a-fA-F:]{2,39}$/;
/** Spec §7: a reachability check times out after 1 second. */
const REACH_TIMEOUT_MS = 1_000;

/** Whether a TCP connection to host:port opens within the time-out. */
export function reaches(host: string, port: number, timeoutMs = REACH_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export type TViewerAgentOptions = {
  /** The RIS origin whose pages may use the agent, e.g. https://ris.example */
  risOrigin: string;
  port?: number;
  /** Where studies are saved (default: the system's temporary folder / ris-studies). */
  downloadsDir?: string;
  /** Opens a downloaded study in the viewer; default: the platform's viewer (see defaultOpener). */
  open?: (file: string, viewer: 'radiant' | 'horos') => Promise<void>;
  log?: (line: string) => void;
};

export type TViewerAgent = { url: string; token: string; server: Server; close(): Promise<void> };

/** RadiAnt on Windows, Horos on macOS, xdg-open elsewhere; the study's zip as the argument. */
export function defaultOpener(file: string, viewer: 'radiant' | 'horos'): Promise<void> {
  const [command, args] =
    process.platform === 'win32'
      ? [process.env['RADIANT_PATH'] ?? 'C:\\Program Files\\RadiAntViewer64bit\\RadiAntViewer.exe', [file]]
      : process.platform === 'darwin'
        ? ['open', ['-a', viewer === 'horos' ? 'Horos' : 'RadiAnt', file]]
        : ['xdg-open', [file]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

function failure(code: string, message: string) {
  return { error: { code, message } };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Starts the agent; resolves once it listens on 127.0.0.1. */
export async function startViewerAgent(options: TViewerAgentOptions): Promise<TViewerAgent> {
  const origin = new URL(options.risOrigin).origin;
  const token = randomBytes(24).toString('base64url');
  const downloadsDir = options.downloadsDir ?? path.join(os.tmpdir(), 'ris-studies');
  const open = options.open ?? defaultOpener;
  const log = options.log ?? (() => undefined);
  const cors = {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-private-network': 'true',
    'access-control-max-age': '600',
    vary: 'Origin',
  };

  async function openStudy(request: IncomingMessage, response: ServerResponse) {
    const given = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!sameToken(given, token))
      return send(response, 401, failure('UNAUTHORIZED', 'The agent token is missing or wrong.'), cors);
    let body: { zip_url?: unknown; viewer?: unknown; study_uid?: unknown };
    try {
      body = (await readJson(request)) as typeof body;
    } catch {
      return send(response, 400, failure('BAD_REQUEST', 'The body must be JSON of at most 16 KB.'), cors);
    }
    const viewer = body.viewer === 'horos' ? 'horos' : body.viewer === 'radiant' ? 'radiant' : null;
    if (!viewer) return send(response, 400, failure('BAD_REQUEST', 'viewer: must be radiant or horos'), cors);
    if (typeof body.study_uid !== 'string' || !UID.test(body.study_uid) || body.study_uid.length > 64)
      return send(response, 400, failure('BAD_REQUEST', 'study_uid: must be a DICOM UID'), cors);
    let zipUrl: URL;
    try {
      zipUrl = new URL(String(body.zip_url), origin);
    } catch {
      return send(response, 400, failure('BAD_REQUEST', 'zip_url: must be a URL'), cors);
    }
    if (zipUrl.origin !== origin || !ZIP_PATH.test(zipUrl.pathname))
      return send(
        response,
        400,
        failure('BAD_REQUEST', `zip_url: must be a study download link of ${origin}`),
        cors,
      );
    const file = path.join(downloadsDir, `${body.study_uid}.zip`);
    try {
      const download = await fetch(zipUrl, { redirect: 'error', signal: AbortSignal.timeout(30_000) });
      if (!download.ok || !download.body)
        return send(
          response,
          502,
          failure('DOWNLOAD_FAILED', `The RIS refused the download (${download.status}).`),
          cors,
        );
      await mkdir(downloadsDir, { recursive: true });
      await pipeline(Readable.fromWeb(download.body as TWebStream), createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      return send(
        response,
        502,
        failure('DOWNLOAD_FAILED', `The study could not be downloaded: ${(error as Error).message}`),
        cors,
      );
    }
    try {
      await open(file, viewer);
    } catch (error) {
      return send(
        response,
        500,
        failure(
          'VIEWER_FAILED',
          `Saved ${file}, but ${viewer} could not be started: ${(error as Error).message}`,
        ),
        cors,
      );
    }
    log(`opened study ${body.study_uid} in ${viewer} (${file})`);
    return send(response, 202, { file, viewer }, cors);
  }

  /** GET /reach?host=&port= (with the token): whether this workstation reaches a facility's node. */
  async function reach(request: IncomingMessage, response: ServerResponse) {
    const given = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!sameToken(given, token))
      return send(response, 401, failure('UNAUTHORIZED', 'The agent token is missing or wrong.'), cors);
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    const host = query.get('host') ?? '';
    const port = Number(query.get('port'));
    if (!HOST.test(host))
      return send(response, 400, failure('BAD_REQUEST', 'host: must be a host name or address'), cors);
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      return send(response, 400, failure('BAD_REQUEST', 'port: must be a port number'), cors);
    return send(response, 200, { host, port, reachable: await reaches(host, port) }, cors);
  }

  const server = createServer((request, response) => {
    // Only pages of the RIS (a browser always sends Origin on these cross-origin calls).
    if (request.headers.origin !== origin)
      return send(response, 403, failure('FORBIDDEN', `Only ${origin} may use this agent.`));
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors);
      return response.end();
    }
    const route = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'GET' && route === '/')
      return send(
        response,
        200,
        { name: 'ris-viewer-agent', version: VIEWER_AGENT_VERSION, token, viewers: ['radiant', 'horos'] },
        cors,
      );
    if (request.method === 'POST' && route === '/open') return void openStudy(request, response);
    if (request.method === 'GET' && route === '/reach') return void reach(request, response);
    return send(response, 404, failure('NOT_FOUND', 'No such agent call.'), cors);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? VIEWER_AGENT_PORT, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : VIEWER_AGENT_PORT;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `node ris-viewer-agent.js --ris https://ris.example [--port 8843] [--dir <folder>]` */
async function main(argv: readonly string[]): Promise<void> {
  const option = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const ris = option('ris') ?? process.env['RIS_URL'];
  if (!ris) {
    process.stderr.write(
      'Usage: node ris-viewer-agent.js --ris https://your-ris.example [--port 8843] [--dir folder]\n',
    );
    process.exit(2);
  }
  const agent = await startViewerAgent({
    risOrigin: ris,
    port: Number(option('port') ?? VIEWER_AGENT_PORT),
    ...(option('dir') ? { downloadsDir: path.resolve(String(option('dir'))) } : {}),
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(
    `ris-viewer-agent ${VIEWER_AGENT_VERSION} on ${agent.url} for ${new URL(ris).origin}. Keep it running; Ctrl-C stops it.\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
