import { describe, expect, it } from 'vitest';
import {
  MODALITIES,
  ZModality,
  modalityGroupOf,
  modalityGroupOfStudy,
  modalityVariantsOf,
  normaliseModality,
} from './modalities.ts';
import { PRIORITY_TAGS, ZPriorityTag } from './priority-tags.ts';
import { DEFAULT_VIEWER, VIEWERS, VIEWER_LABELS, ZViewer } from '../index.ts';

describe('modalities', () => {
  it('lists the groups', () => {
    expect(MODALITIES).toEqual(['USG', 'XRAY', 'CT', 'MRI', 'NM']);
    expect(ZModality.safeParse('MR').success).toBe(false);
  });

  it.each([
    ['USG', 'USG'],
    ['XRAY', 'XRAY'],
    ['X-RAY', 'XRAY'],
    ['CT', 'CT'],
    ['CT,SR', 'CT'],
    ['CT,PT,SR', 'CT'],
    ['MR', 'MRI'],
    ['MR,SR', 'MRI'],
    ['MRI', 'MRI'],
    ['NM', 'NM'],
    [' ct, sr ', 'CT'],
    ['x-ray', 'XRAY'],
  ])('%s belongs to %s', (raw, group) => {
    expect(modalityGroupOf(raw)).toBe(group);
  });

  it('returns null for modalities outside the groups', () => {
    expect(modalityGroupOf('PT')).toBeNull();
    expect(modalityGroupOf('SR,CT')).toBeNull();
    expect(modalityGroupOf('')).toBeNull();
  });

  it('normalises spacing and case', () => {
    expect(normaliseModality(' mr , sr')).toBe('MR,SR');
  });

  it('expands groups to their stored spellings without duplicates', () => {
    expect(modalityVariantsOf(['MRI', 'XRAY'])).toEqual(['MR', 'MR,SR', 'MRI', 'XRAY', 'X-RAY']);
    expect(modalityVariantsOf(['CT', 'CT'])).toEqual(['CT', 'CT,SR', 'CT,PT,SR']);
    expect(modalityVariantsOf([])).toEqual([]);
  });
});

describe('priority tags and viewers', () => {
  it('lists the priority tags', () => {
    expect(PRIORITY_TAGS).toEqual([
      'MLC',
      'URGENT',
      'ROUTINE',
      'FOLLOW_UP',
      'POST_SURGICAL',
      'ONCO',
      'COMPLEX',
      'EMERGENCY',
      'COMPARATIVE',
    ]);
    expect(ZPriorityTag.safeParse('STAT').success).toBe(false);
  });

  it('lists the viewers with OHIF as default', () => {
    expect(VIEWERS).toEqual(['ohif', 'weasis', 'horos', 'radiant']);
    expect(DEFAULT_VIEWER).toBe('ohif');
    expect(ZViewer.safeParse('OHIF').success).toBe(false);
    expect(Object.keys(VIEWER_LABELS)).toEqual([...VIEWERS]);
  });
});

describe('modalityGroupOfStudy (ModalitiesInStudy from an archive)', () => {
  it.each([
    [['CT', 'SR'], 'CT'],
    [['SR', 'CT'], 'CT'],
    [['PT', 'CT'], 'CT'],
    [['PT'], 'NM'],
    [['MR'], 'MRI'],
    [['US'], 'USG'],
    [['DX'], 'XRAY'],
    [['MG', 'PR'], 'XRAY'],
    [['X-RAY'], 'XRAY'],
  ] as const)('%j → %s', (modalities, group) => {
    expect(modalityGroupOfStudy(modalities)).toBe(group);
  });

  it('is null for non-image objects only or nothing', () => {
    expect(modalityGroupOfStudy(['SR', 'KO'])).toBeNull();
    expect(modalityGroupOfStudy(['OT'])).toBeNull();
    expect(modalityGroupOfStudy([])).toBeNull();
  });
});
