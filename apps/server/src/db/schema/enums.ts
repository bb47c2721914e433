// PostgreSQL enum types. Values come from @ris/domain so the database, the API and the UI share one
// list; adding a value there needs a migration here (ALTER TYPE ... ADD VALUE).
import {
  MODALITIES,
  PRIORITY_TAGS,
  RADIOLOGIST_USER_TYPES,
  RECORD_STATUSES,
  REPORT_STATUSES,
  REQUEST_STATUSES,
  ROLES,
  SCOPES,
  STAFF_KINDS,
  STUDY_STATUSES,
  TEMPLATE_SCOPES,
} from '@ris/domain';
import { pgEnum } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ROLES);
export const radiologistUserTypeEnum = pgEnum('radiologist_user_type', RADIOLOGIST_USER_TYPES);
export const staffKindEnum = pgEnum('staff_kind', STAFF_KINDS);
export const recordStatusEnum = pgEnum('record_status', RECORD_STATUSES);
/** ORGANISATION | USER: who owns a preference row. */
export const scopeEnum = pgEnum('scope', SCOPES);
/** DEFAULT | USER | ORGANISATION: used by templates and by tags (the same three owners). */
export const templateScopeEnum = pgEnum('template_scope', TEMPLATE_SCOPES);
export const priorityTagEnum = pgEnum('priority_tag', PRIORITY_TAGS);
export const studyStatusEnum = pgEnum('study_status', STUDY_STATUSES);
export const reportStatusEnum = pgEnum('report_status', REPORT_STATUSES);
export const requestStatusEnum = pgEnum('request_status', REQUEST_STATUSES);
/** The modality group of a study (USG, XRAY, CT, MRI, NM), derived from its raw DICOM modality. */
export const modalityGroupEnum = pgEnum('modality_group', MODALITIES);

export const REPORT_VERSION_KINDS = ['EDIT', 'ADDENDUM'] as const;
export type TReportVersionKind = (typeof REPORT_VERSION_KINDS)[number];
/** EDIT: a saved revision before finalisation; ADDENDUM: a change to a FINAL report. */
export const reportVersionKindEnum = pgEnum('report_version_kind', REPORT_VERSION_KINDS);

export const JOB_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];
export const jobStatusEnum = pgEnum('job_status', JOB_STATUSES);

export const MESSAGE_CHANNELS = ['email', 'whatsapp'] as const;
export type TMessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const messageChannelEnum = pgEnum('message_channel', MESSAGE_CHANNELS);
