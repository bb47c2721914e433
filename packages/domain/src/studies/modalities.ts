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
