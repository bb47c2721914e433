// A local Orthanc (Debian `orthanc` + `orthanc-dicomweb`) started as a child process, for the tests
// and `npm run pacs:demo`. Orthanc 1.10 has no bind-address option: it listens on every interface,
// so remote access stays off (RemoteAccessAllowed false: only 127.0.0.1 is answered), the DICOM port
// is off, HTTP needs a user, and the RIS talks to it on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

const ORTHANC_BINARIES = ['/usr/sbin/Orthanc', '/usr/bin/Orthanc', '/usr/local/bin/Orthanc'];
const DICOMWEB_PLUGINS = [
  '/usr/share/orthanc/plugins/libOrthancDicomWeb.so',
  '/usr/lib/orthanc/plugins/libOrthancDicomWeb.so',
];

export const ORTHANC_INSTALL_HINT =
  'Orthanc is not installed: on Debian run `apt-get install orthanc orthanc-dicomweb` (with a policy-rc.d that stops its service from starting, as .ci/run does), or set ORTHANC_BIN and ORTHANC_DICOMWEB_PLUGIN.';

export type TLocalOrthanc = {
  /** REST root, e.g. http://127.0.0.1:41234 */
  restUrl: string;
  /** DICOMweb root, e.g. http://127.0.0.1:41234/dicom-web */
  dicomwebUrl: string;
  username: string;
  password: string;
  /** The Authorization header value for this instance. */
  authorization: string;
  storageDir: string;
  stop(): Promise<void>;
};

export type TLocalOrthancOptions = {
  /** Folder for the database and images (created). */
  storageDir: string;
  /** HTTP port; a free one by default. */
  port?: number;
  /** Seconds without new instances before Orthanc calls a study stable (default 1). */
  stableAgeSeconds?: number;
  password?: string;
};

async function firstExisting(candidates: readonly string[]): Promise<string | null> {
  for (const candidate of candidates) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next
    }
  }
  return null;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilUp(url: string, authorization: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Orthanc exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}/system`, {
        headers: { authorization },
        signal: AbortSignal.timeout(1_000),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Orthanc did not answer on ${url} within 30 s:\n${log()}`);
}

/** Starts Orthanc with the DICOMweb plugin; resolves once its REST API answers. */
export async function startLocalOrthanc(options: TLocalOrthancOptions): Promise<TLocalOrthanc> {
  const binary = process.env['ORTHANC_BIN'] ?? (await firstExisting(ORTHANC_BINARIES));
  const plugin = process.env['ORTHANC_DICOMWEB_PLUGIN'] ?? (await firstExisting(DICOMWEB_PLUGINS));
  if (!binary || !plugin) throw new Error(ORTHANC_INSTALL_HINT);
  const port = options.port ?? (await freePort());
  const username = 'ris';
  const password = options.password ?? randomBytes(12).toString('base64url');
  await mkdir(options.storageDir, { recursive: true });
  const configFile = path.join(options.storageDir, 'orthanc.json');
  await writeFile(
    configFile,
    JSON.stringify(
      {
        Name: 'RIS local archive',
        StorageDirectory: options.storageDir,
        IndexDirectory: options.storageDir,
        HttpPort: port,
        DicomServerEnabled: false,
        RemoteAccessAllowed: false,
        AuthenticationEnabled: true,
        RegisteredUsers: { [username]: password },
        Plugins: [plugin],
        DicomWeb: { Enable: true, Root: '/dicom-web/', StudiesMetadata: 'Full', SeriesMetadata: 'Full' },
        StableAge: options.stableAgeSeconds ?? 1,
        ConcurrentJobs: 1,
        HttpThreadsCount: 8,
      },
      null,
      2,
    ),
  );
  let output = '';
  const child = spawn(binary, [configFile], { cwd: options.storageDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const restUrl = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  try {
    await waitUntilUp(restUrl, authorization, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the process that started it (a test worker that dies, a demo stopped hard).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  return {
    restUrl,
    dicomwebUrl: `${restUrl}/dicom-web`,
    username,
    password,
    authorization,
    storageDir: options.storageDir,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Stores Part 10 files in Orthanc through its REST API (POST /instances), one request each. */
export async function uploadInstances(
  orthanc: Pick<TLocalOrthanc, 'restUrl' | 'authorization'>,
  files: readonly Buffer[],
): Promise<void> {
  for (const file of files) {
    const response = await fetch(`${orthanc.restUrl}/instances`, {
      method: 'POST',
      headers: { authorization: orthanc.authorization, 'content-type': 'application/dicom' },
      body: new Uint8Array(file),
    });
    if (!response.ok)
      throw new Error(`Orthanc refused an instance: ${response.status} ${await response.text()}`);
  }
}
