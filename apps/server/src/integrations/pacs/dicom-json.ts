// Reading DICOM JSON (PS3.18 F.2) as QIDO-RS answers it: the study attributes the RIS keeps. An
// archive's answer is outside data: every value is checked, a malformed study is reported as such.
import { isDicomUid } from '@ris/domain';
import { z } from 'zod';
import { ArchiveError } from './archive-client.ts';

/** The DICOM attributes the RIS reads, by their JSON keys (group and element in hex). */
export const DICOM_TAG = {
  studyUid: '0020000D',
  seriesUid: '0020000E',
  patientName: '00100010',
  patientId: '00100020',
  patientBirthDate: '00100030',
  patientSex: '00100040',
  accession: '00080050',
  studyDescription: '00081030',
  studyDate: '00080020',
  studyTime: '00080030',
  modalitiesInStudy: '00080061',
  modality: '00080060',
  institutionName: '00080080',
  bodyPart: '00180015',
  seriesDescription: '0008103E',
  seriesNumber: '00200011',
  seriesCount: '00201206',
  instanceCount: '00201208',
  seriesInstanceCount: '00201209',
  sopInstanceUid: '00080018',
  instanceNumber: '00200013',
} as const;
const TAG = DICOM_TAG;

/** The attributes a study query asks for (includefield), besides the required return keys. */
export const STUDY_INCLUDE_FIELDS = [
  TAG.patientBirthDate,
  TAG.patientSex,
  TAG.studyDescription,
  TAG.modalitiesInStudy,
  TAG.seriesCount,
  TAG.instanceCount,
  TAG.institutionName,
];
export const SERIES_INCLUDE_FIELDS = [
  TAG.bodyPart,
  TAG.institutionName,
  TAG.seriesDescription,
  TAG.seriesInstanceCount,
];

const ZAttribute = z.object({ vr: z.string().optional(), Value: z.array(z.unknown()).optional() }).loose();
export const ZDicomJsonDataset = z.record(z.string(), ZAttribute);
export type TDicomJsonDataset = z.infer<typeof ZDicomJsonDataset>;
const ZDicomJsonList = z.array(ZDicomJsonDataset);

// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are removed from archive text
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A study as the archive describes it. */
export type TArchiveStudy = {
  studyUid: string;
  patientName: string;
  patientId: string;
  patientSex: 'M' | 'F' | 'O' | null;
  /** YYYY-MM-DD */
  patientBirthDate: string | null;
  accessionNumber: string;
  studyDescription: string | null;
  /** ModalitiesInStudy, e.g. ['CT', 'SR']. */
  modalities: string[];
  bodyPart: string | null;
  institutionName: string | null;
  /** From StudyDate + StudyTime, read as UTC (DICOM dates carry no zone); null without a date. */
  studyDatetime: Date | null;
  seriesCount: number;
  instanceCount: number;
};

/** An archive answer that is not the DICOM JSON asked for (an ArchiveError of kind 'malformed'). */
export class MalformedDicomJson extends ArchiveError {
  constructor(message: string) {
    super('malformed', message);
    this.name = 'MalformedDicomJson';
  }
}

function values(dataset: TDicomJsonDataset, tag: string): unknown[] {
  return dataset[tag]?.Value ?? [];
}

/** The first value as text (numbers too); '' when absent; control characters removed. */
export function dicomText(dataset: TDicomJsonDataset, tag: string, max = 256): string {
  const [first] = values(dataset, tag);
  if (typeof first === 'string' || typeof first === 'number') {
    return String(first).replace(CONTROL_CHARACTERS, '').trim().slice(0, max);
  }
  return '';
}

function texts(dataset: TDicomJsonDataset, tag: string): string[] {
  return values(dataset, tag)
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.trim().toUpperCase().slice(0, 16))
    .filter((value) => value !== '');
}

/** The first value as a whole number from 0 to 999,999, or null. */
export function dicomInteger(dataset: TDicomJsonDataset, tag: string): number | null {
  const [first] = values(dataset, tag);
  const number = typeof first === 'number' ? first : typeof first === 'string' ? Number(first) : NaN;
  return Number.isInteger(number) && number >= 0 && number < 1_000_000 ? number : null;
}

/** PN: { Alphabetic: 'Doe^Jane^^Dr' } → 'Doe Jane Dr' (components joined by spaces). */
function personName(dataset: TDicomJsonDataset, tag: string): string {
  const [first] = values(dataset, tag);
  const alphabetic =
    typeof first === 'object' && first !== null && 'Alphabetic' in first
      ? (first as { Alphabetic: unknown }).Alphabetic
      : first;
  if (typeof alphabetic !== 'string') return '';
  return alphabetic
    .split('^')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ')
    .replace(CONTROL_CHARACTERS, '')
    .slice(0, 200);
}

/** DA 'YYYYMMDD' → 'YYYY-MM-DD' when it is a real date. */
export function dicomDate(raw: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(raw.replace(/[.-]/g, ''));
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso ? null : iso;
}

function dicomDatetime(date: string, time: string): Date | null {
  const day = dicomDate(date);
  if (!day) return null;
  const match = /^(\d{2})(\d{2})?(\d{2})?/.exec(time.replace(/:/g, ''));
  const [hh, mm, ss] = [match?.[1] ?? '00', match?.[2] ?? '00', match?.[3] ?? '00'];
  const value = new Date(`${day}T${hh}:${mm}:${ss}Z`);
  return Number.isNaN(value.getTime()) ? new Date(`${day}T00:00:00Z`) : value;
}

function sexOf(raw: string): TArchiveStudy['patientSex'] {
  const value = raw.toUpperCase();
  return value === 'M' || value === 'F' || value === 'O' ? value : null;
}

/** A QIDO-RS answer (a JSON array of datasets), or MalformedDicomJson. */
export function parseDicomJsonList(body: unknown, what = 'the archive'): TDicomJsonDataset[] {
  const parsed = ZDicomJsonList.safeParse(body);
  if (!parsed.success) throw new MalformedDicomJson(`${what} answered something that is not DICOM JSON`);
  return parsed.data;
}

/** The Study Instance UID of a dataset, or null when it has none or an invalid one. */
export function studyUidOf(dataset: TDicomJsonDataset): string | null {
  const uid = dicomText(dataset, TAG.studyUid, 64);
  return isDicomUid(uid) ? uid : null;
}

/**
 * A study from its QIDO study-level dataset and its series-level datasets (body part, institution and
 * modalities come from the series when the study level lacks them).
 */
export function archiveStudyOf(
  study: TDicomJsonDataset,
  series: readonly TDicomJsonDataset[],
): TArchiveStudy {
  const studyUid = studyUidOf(study);
  if (!studyUid) throw new MalformedDicomJson('a study without a valid StudyInstanceUID (0020000D)');
  const seriesModalities = series.flatMap((item) => texts(item, TAG.modality));
  const modalities = [...new Set([...texts(study, TAG.modalitiesInStudy), ...seriesModalities])];
  const fromSeries = (tag: string) =>
    series.map((item) => dicomText(item, tag, 64)).find((value) => value !== '') ?? '';
  const seriesInstances = series.reduce(
    (sum, item) => sum + (dicomInteger(item, TAG.seriesInstanceCount) ?? 0),
    0,
  );
  return {
    studyUid,
    patientName: personName(study, TAG.patientName),
    patientId: dicomText(study, TAG.patientId, 64),
    patientSex: sexOf(dicomText(study, TAG.patientSex, 16)),
    patientBirthDate: dicomDate(dicomText(study, TAG.patientBirthDate, 16)),
    accessionNumber: dicomText(study, TAG.accession, 64),
    studyDescription: dicomText(study, TAG.studyDescription) || null,
    modalities,
    bodyPart: fromSeries(TAG.bodyPart) || null,
    institutionName: dicomText(study, TAG.institutionName, 64) || fromSeries(TAG.institutionName) || null,
    studyDatetime: dicomDatetime(dicomText(study, TAG.studyDate, 16), dicomText(study, TAG.studyTime, 32)),
    seriesCount: Math.max(dicomInteger(study, TAG.seriesCount) ?? 0, series.length),
    instanceCount: Math.max(dicomInteger(study, TAG.instanceCount) ?? 0, seriesInstances),
  };
}
