import { z } from 'zod';

/** Modality groups offered as filters. */
export const MODALITIES = ['USG', 'XRAY', 'CT', 'MRI', 'NM'] as const;
export type TModality = (typeof MODALITIES)[number];
export const ZModality = z.enum(MODALITIES);

/** The modality strings found on studies (DICOM ModalitiesInStudy and local spellings) per group. */
export const MODALITY_VARIANTS = {
  USG: ['USG'],
  XRAY: ['XRAY', 'X-RAY'],
  CT: ['CT', 'CT,SR', 'CT,PT,SR'],
  MRI: ['MR', 'MR,SR', 'MRI'],
  NM: ['NM'],
} as const satisfies Record<TModality, readonly string[]>;

/** Upper-cases and removes blanks ('ct, sr ' → 'CT,SR') so stored spellings compare equal. */
export function normaliseModality(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** Group of a study's modality string, or null when it belongs to none. */
export function modalityGroupOf(raw: string): TModality | null {
  const value = normaliseModality(raw);
  for (const group of MODALITIES) {
    if ((MODALITY_VARIANTS[group] as readonly string[]).includes(value)) return group;
  }
  return null;
}

/** Every stored spelling of the selected groups, for a database `IN (...)` filter; no duplicates. */
export function modalityVariantsOf(groups: readonly TModality[]): string[] {
  return [...new Set(groups.flatMap((group) => MODALITY_VARIANTS[group]))];
}

/**
 * DICOM modality codes (ModalitiesInStudy, PS3.3 C.7.3.1.1.1) of each group, most specific first.
 * SR, PR, KO, SEG and other non-image objects belong to none.
 */
const DICOM_MODALITY_GROUPS: readonly (readonly [TModality, readonly string[]])[] = [
  ['CT', ['CT']],
  ['MRI', ['MR']],
  ['NM', ['NM', 'PT']],
  ['USG', ['US', 'IVUS']],
  ['XRAY', ['CR', 'DX', 'DR', 'RF', 'XA', 'MG', 'IO', 'PX', 'RG', 'DF']],
];

/**
 * Group of a study received from an archive, from its ModalitiesInStudy: the first group (in the
 * order above) one of its codes belongs to ('SR','CT' → CT; 'PT','CT' → CT; 'OT' → null). A list
 * whose joined spelling is a known variant keeps that variant's group.
 */
export function modalityGroupOfStudy(modalities: readonly string[]): TModality | null {
  const codes = modalities.map(normaliseModality).filter((code) => code !== '');
  const joined = modalityGroupOf(codes.join(','));
  if (joined) return joined;
  for (const [group, members] of DICOM_MODALITY_GROUPS) {
    if (codes.some((code) => members.includes(code))) return group;
  }
  return null;
}
