// The part of dcmjs (no bundled types) the project uses: writing a DICOM Part 10 file from a
// "naturalized" dataset (keyword → value) and reading one back.
declare module 'dcmjs' {
  type TNaturalDataset = Record<string, unknown>;
  type TDenaturalizedDataset = Record<string, { vr: string; Value?: unknown[] }>;

  class DicomDict {
    constructor(meta: TDenaturalizedDataset);
    dict: TDenaturalizedDataset;
    meta: TDenaturalizedDataset;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }

  const dcmjs: {
    data: {
      DicomDict: typeof DicomDict;
      DicomMessage: { readFile(buffer: ArrayBuffer): DicomDict };
      DicomMetaDictionary: {
        uid(): string;
        denaturalizeDataset(dataset: TNaturalDataset): TDenaturalizedDataset;
        naturalizeDataset(dataset: TDenaturalizedDataset): TNaturalDataset;
      };
    };
  };
  export default dcmjs;
}
