// `npm run pacs:demo`: a local Orthanc with synthetic images for the demo worklist, connected to a
// running RIS (`npm start` in another terminal) through its own API, as an admin would connect one:
// starts Orthanc (Debian `orthanc` + `orthanc-dicomweb`; data kept in DATA_DIR/orthanc), signs in
// as the demo admin, adds or updates the "Demo Orthanc" archive for every facility, stores one
// synthetic study per demo worklist item (same Study UID, patient, accession and modality) and two
// studies the RIS has not seen, pulls, and keeps Orthanc running until Ctrl-C.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startLocalOrthanc, uploadInstances } from '../integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../integrations/pacs/synthetic-dicom.ts';

const RIS_URL = (process.env['RIS_URL'] ?? `http://127.0.0.1:${process.env['PORT'] ?? '8080'}`).replace(
  /\/$/,
  '',
);
const ADMIN_EMAIL = process.env['RIS_DEMO_ADMIN'] ?? 'admin@demo.test';
const PASSWORD = process.env['RIS_DEMO_PASSWORD'] ?? 'demo-radiology';
const ORTHANC_PORT = Number(process.env['ORTHANC_PORT'] ?? '8042');
const DATA_DIR = path.resolve(process.env['DATA_DIR'] ?? '.data', 'orthanc');
const ARCHIVE_NAME = 'Demo Orthanc';
/** The DICOM code a demo item's modality group is stored under. */
const DICOM_CODE: Record<string, string> = { CT: 'CT', MRI: 'MR', USG: 'US', XRAY: 'DX', NM: 'NM' };

type TJson = Record<string, unknown>;

async function api(token: string | null, method: string, route: string, body?: unknown): Promise<TJson> {
  const response = await fetch(`${RIS_URL}/api/v1${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as TJson;
}

async function orthancPassword(): Promise<string> {
  const file = path.join(DATA_DIR, 'ris-password');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(12).toString('base64url');
    await mkdir(DATA_DIR, { recursive: true });
    await writeFile(file, password, { mode: 0o600 });
    return password;
  }
}

function list(value: unknown): TJson[] {
  return Array.isArray(value) ? (value as TJson[]) : [];
}

function dicomDate(iso: unknown): string | undefined {
  return typeof iso === 'string' && iso.length >= 10 ? iso.slice(0, 10).replaceAll('-', '') : undefined;
}

async function main(): Promise<void> {
  try {
    await fetch(`${RIS_URL}/readyz`, { signal: AbortSignal.timeout(3_000) });
  } catch {
    throw new Error(`No RIS answers at ${RIS_URL}: start it first with \`npm start\` (or set RIS_URL).`);
  }
  const password = await orthancPassword();
  const orthanc = await startLocalOrthanc({
    storageDir: DATA_DIR,
    port: ORTHANC_PORT,
    password,
    stableAgeSeconds: 2,
  });
  process.stdout.write(
    `Orthanc is running on ${orthanc.restUrl} (DICOMweb ${orthanc.dicomwebUrl}), data in ${DATA_DIR}\n`,
  );
  const stop = async () => {
    await orthanc.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const session = await api(null, 'POST', '/auth/sign-in', { email: ADMIN_EMAIL, password: PASSWORD });
  const token = String(session['id_token']);
  const user = (session['user'] ?? {}) as TJson;
  const organisation = await api(
    token,
    'GET',
    `/user/organisation/details/${String(user['organisation_fk'])}`,
  );
  const facilities = list(organisation['all_facilities']);
  const settings = {
    name: ARCHIVE_NAME,
    kind: 'orthanc',
    dicomweb_url: orthanc.dicomwebUrl,
    orthanc_url: orthanc.restUrl,
    auth_kind: 'basic',
    username: orthanc.username,
    secret: password,
    facilities: facilities.map((facility) => ({ facility_id: facility['id'], institution_name: null })),
    default_facility_id: facilities[0]?.['id'] ?? null,
    enabled: true,
    poll_interval_seconds: 5,
  };
  const existing = list((await api(token, 'GET', '/pacs/archives'))['archives']).find(
    (archive) => archive['name'] === ARCHIVE_NAME,
  );
  if (existing) await api(token, 'PUT', `/pacs/archives/${String(existing['id'])}`, settings);
  else await api(token, 'POST', '/pacs/archives', settings);

  const facilityName = new Map(facilities.map((facility) => [facility['id'], String(facility['name'])]));
  const worklist = list((await api(token, 'GET', '/worklist?limit=60'))['items']);
  let stored = 0;
  for (const item of worklist) {
    if (typeof item['study_uid'] !== 'string' || item['status'] === 'ORDERED' || item['status'] === 'DELETED')
      continue;
    const group = typeof item['modality'] === 'string' ? (item['modality'].split(',')[0] ?? 'CT') : 'CT';
    const code = DICOM_CODE[String(item['modality_group'] ?? '')] ?? (group.length <= 4 ? group : 'OT');
    const study = syntheticStudy({
      studyUid: item['study_uid'],
      patientName: String(item['patient_name'] ?? '').replace(/ /g, '^'),
      patientId: String(item['patient_id'] ?? ''),
      accessionNumber: String(item['accession_number'] ?? ''),
      studyDescription: String(item['study'] ?? ''),
      modalities: [code, code],
      instancesPerSeries: 3,
      institutionName: facilityName.get(item['facility_fk']) ?? '',
      ...(dicomDate(item['datetime']) ? { studyDate: dicomDate(item['datetime']) } : {}),
      size: 256,
    });
    await uploadInstances(orthanc, study.instances);
    stored += 1;
  }
  for (const [index, modality] of ['CT', 'MR'].entries()) {
    const fresh = syntheticStudy({
      patientName: `Demo^Arrival^${index + 1}`,
      patientId: `PACS-DEMO-${Date.now()}-${index}`,
      studyDescription: modality === 'CT' ? 'CT HEAD PLAIN' : 'MR KNEE',
      modalities: [modality, modality, modality],
      instancesPerSeries: 4,
      institutionName: String(facilities[0]?.['name'] ?? ''),
      size: 256,
    });
    await uploadInstances(orthanc, fresh.instances);
  }
  process.stdout.write(`Stored ${stored} studies of the demo worklist and 2 new ones in Orthanc.\n`);
  const pulled = await api(token, 'GET', '/worklist/populate/worklist');
  process.stdout.write(
    `The RIS pulled: ${String(pulled['added'])} added, ${String(pulled['updated'])} updated. New studies keep arriving by themselves (the archive is polled every 5 s).\n` +
      `Open ${RIS_URL}, sign in as ${ADMIN_EMAIL}, and open a study in the built-in viewer. Ctrl-C stops Orthanc.\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
