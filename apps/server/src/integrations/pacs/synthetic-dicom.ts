// Synthetic DICOM studies, made on the fly for tests, benches and `npm run pacs:demo`: small
// secondary-capture images (a gradient with a bright disc whose place depends on the instance, so
// images differ) in explicit VR little endian, with the study, series and patient attributes the
// RIS synchronises. Nothing here is real patient data.
import dcmjs from 'dcmjs';

const { DicomDict, DicomMetaDictionary } = dcmjs.data;

const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';
const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
const IMPLEMENTATION_CLASS_UID = '1.2.826.0.1.3680043.10.1311.1';

export type TSyntheticStudySpec = {
  patientName: string;
  patientId: string;
  patientSex?: 'M' | 'F' | 'O';
  /** YYYYMMDD. */
  patientBirthDate?: string;
  accessionNumber?: string;
  studyDescription?: string;
  /** One modality per series, e.g. ['CT', 'CT']: also sets the series count. */
  modalities: readonly string[];
  instancesPerSeries?: number;
  bodyPart?: string;
  institutionName?: string;
  /** YYYYMMDD and HHMMSS; default now (UTC). */
  studyDate?: string;
  studyTime?: string;
  studyUid?: string;
  /** Image edge in pixels (default 64). */
  size?: number;
};

export type TSyntheticStudy = {
  studyUid: string;
  seriesUids: string[];
  /** Every instance as a Part 10 file, series by series. */
  instances: Buffer[];
};

/** A fresh DICOM UID (2.25 + a random 128-bit number, as dcmjs makes them). */
export function dicomUid(): string {
  return DicomMetaDictionary.uid();
}

function pixelsOf(size: number, seed: number): ArrayBuffer {
  const pixels = new Uint8Array(size * size);
  const cx = ((seed * 17) % size) | 0;
  const cy = ((seed * 29) % size) | 0;
  const radius = size / 5;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2;
      pixels[y * size + x] = inDisc ? 250 : Math.round(((x + y) / (2 * size)) * 160);
    }
  }
  return pixels.buffer;
}

function dateTimeNow(): { date: string; time: string } {
  const iso = new Date().toISOString();
  return { date: iso.slice(0, 10).replaceAll('-', ''), time: iso.slice(11, 19).replaceAll(':', '') };
}

/** One Part 10 file from a naturalized dataset. */
export function part10(dataset: Record<string, unknown>): Buffer {
  const sopClass = String(dataset['SOPClassUID']);
  const sopInstance = String(dataset['SOPInstanceUID']);
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sopClass,
    MediaStorageSOPInstanceUID: sopInstance,
    TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
  };
  const file = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  file.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return Buffer.from(file.write());
}

/** A whole study: `modalities.length` series of `instancesPerSeries` images each. */
export function syntheticStudy(spec: TSyntheticStudySpec): TSyntheticStudy {
  const size = spec.size ?? 64;
  const now = dateTimeNow();
  const studyUid = spec.studyUid ?? dicomUid();
  const seriesUids: string[] = [];
  const instances: Buffer[] = [];
  spec.modalities.forEach((modality, seriesIndex) => {
    const seriesUid = dicomUid();
    const frameOfReference = dicomUid();
    seriesUids.push(seriesUid);
    for (let index = 0; index < (spec.instancesPerSeries ?? 1); index += 1) {
      instances.push(
        part10({
          SOPClassUID: SECONDARY_CAPTURE,
          SOPInstanceUID: dicomUid(),
          StudyInstanceUID: studyUid,
          SeriesInstanceUID: seriesUid,
          PatientName: spec.patientName,
          PatientID: spec.patientId,
          PatientSex: spec.patientSex ?? 'O',
          PatientBirthDate: spec.patientBirthDate ?? '',
          AccessionNumber: spec.accessionNumber ?? '',
          StudyDescription: spec.studyDescription ?? '',
          SeriesDescription: `${modality} series ${seriesIndex + 1}`,
          StudyDate: spec.studyDate ?? now.date,
          StudyTime: spec.studyTime ?? now.time,
          StudyID: '1',
          SeriesNumber: String(seriesIndex + 1),
          InstanceNumber: String(index + 1),
          Modality: modality,
          BodyPartExamined: spec.bodyPart ?? '',
          InstitutionName: spec.institutionName ?? '',
          ConversionType: 'WSD',
          Rows: size,
          Columns: size,
          BitsAllocated: 8,
          BitsStored: 8,
          HighBit: 7,
          PixelRepresentation: 0,
          SamplesPerPixel: 1,
          PhotometricInterpretation: 'MONOCHROME2',
          // A regular stack (one plane, 2 mm apart) so viewers can scroll and reconstruct it.
          PixelSpacing: ['0.5', '0.5'],
          SliceThickness: '2',
          ImageOrientationPatient: ['1', '0', '0', '0', '1', '0'],
          ImagePositionPatient: ['0', '0', String(index * 2)],
          FrameOfReferenceUID: frameOfReference,
          PixelData: pixelsOf(size, seriesIndex * 31 + index),
          _vrMap: { PixelData: 'OB' },
        }),
      );
    }
  });
  return { studyUid, seriesUids, instances };
}
