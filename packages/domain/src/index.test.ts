import { describe, expect, it } from 'vitest';
import * as domain from './index.ts';

describe('package entry', () => {
  it('re-exports the public names of every module', () => {
    const names = [
      'ZErrorBody',
      'ZPagination',
      'paginate',
      'ZUuid',
      'ROLES',
      'ZRole',
      'isReporter',
      'STUDY_STATUSES',
      'statusesOfGroup',
      'groupOfStatus',
      'statusTextColour',
      'label',
      'MODALITY_VARIANTS',
      'PRIORITY_TAGS',
      'REPORT_STATUSES',
      'VIEWERS',
      'WORKLIST_COLUMNS',
      'normaliseColumnOrder',
      'resolveDateRange',
      'formatElapsedMinutes',
      'generateIdentifier',
      'isGeneratedIdentifier',
      'replaceEmptyParagraphs',
      'loginErrorMessage',
      'FALLBACK_ERROR_MESSAGES',
      'SOCKET_PATH',
      'worklistItemTopic',
      'PAGE_SIZES',
      'MIN_PASSWORD_LENGTH',
      'RECORD_STATUSES',
    ];
    for (const name of names) expect(domain, name).toHaveProperty(name);
  });

  it('lists the report document statuses', () => {
    expect(domain.REPORT_STATUSES).toEqual(['CREATED', 'DRAFTED', 'COMPLETED']);
    expect(domain.ZReportStatus.safeParse('FINAL').success).toBe(false);
  });
});
