// Relations for Drizzle's relational queries (db.query.*) over the main joins. They add no SQL.
import { relations } from 'drizzle-orm';
import { storedFiles } from './files.ts';
import { facilities, organisations } from './organisations.ts';
import { patients } from './patients.ts';
import { reportImages, reports, reportSignatures, reportVersions } from './reports.ts';
import { studies } from './studies.ts';
import { patientDocuments, studyStatusHistory } from './study-records.ts';
import { macros, templates } from './templates.ts';
import { tags, worklistTags } from './tags.ts';
import { radiologistDetails, referringPhysicians, userFacilities, users } from './users.ts';

export const organisationsRelations = relations(organisations, ({ many }) => ({
  facilities: many(facilities),
  users: many(users),
}));

export const facilitiesRelations = relations(facilities, ({ one, many }) => ({
  organisation: one(organisations, {
    fields: [facilities.organisationId],
    references: [organisations.id],
  }),
  parentFacility: one(facilities, {
    fields: [facilities.parentFacilityId],
    references: [facilities.id],
    relationName: 'facilityParent',
  }),
  childFacilities: many(facilities, { relationName: 'facilityParent' }),
  letterheadHeaderFile: one(storedFiles, {
    fields: [facilities.letterheadHeaderFileId],
    references: [storedFiles.id],
    relationName: 'facilityLetterheadHeader',
  }),
  letterheadFooterFile: one(storedFiles, {
    fields: [facilities.letterheadFooterFileId],
    references: [storedFiles.id],
    relationName: 'facilityLetterheadFooter',
  }),
  userFacilities: many(userFacilities),
  studies: many(studies),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  organisation: one(organisations, { fields: [users.organisationId], references: [organisations.id] }),
  radiologistDetails: one(radiologistDetails),
  userFacilities: many(userFacilities),
  signatureFile: one(storedFiles, { fields: [users.signatureFileId], references: [storedFiles.id] }),
  assignedStudies: many(studies, { relationName: 'studyLastAssignedUser' }),
  macros: many(macros),
}));

export const radiologistDetailsRelations = relations(radiologistDetails, ({ one }) => ({
  user: one(users, { fields: [radiologistDetails.userId], references: [users.id] }),
}));

export const userFacilitiesRelations = relations(userFacilities, ({ one }) => ({
  user: one(users, { fields: [userFacilities.userId], references: [users.id] }),
  facility: one(facilities, { fields: [userFacilities.facilityId], references: [facilities.id] }),
}));

export const referringPhysiciansRelations = relations(referringPhysicians, ({ one }) => ({
  organisation: one(organisations, {
    fields: [referringPhysicians.organisationId],
    references: [organisations.id],
  }),
  user: one(users, { fields: [referringPhysicians.userId], references: [users.id] }),
}));

export const patientsRelations = relations(patients, ({ one, many }) => ({
  facility: one(facilities, { fields: [patients.facilityId], references: [facilities.id] }),
  studies: many(studies),
}));

export const studiesRelations = relations(studies, ({ one, many }) => ({
  organisation: one(organisations, { fields: [studies.organisationId], references: [organisations.id] }),
  facility: one(facilities, { fields: [studies.facilityId], references: [facilities.id] }),
  patient: one(patients, { fields: [studies.patientId], references: [patients.id] }),
  lastAssignedUser: one(users, {
    fields: [studies.lastAssignedUserId],
    references: [users.id],
    relationName: 'studyLastAssignedUser',
  }),
  referringPhysician: one(referringPhysicians, {
    fields: [studies.referringPhysicianId],
    references: [referringPhysicians.id],
  }),
  report: one(reports),
  statusHistory: many(studyStatusHistory),
  patientDocuments: many(patientDocuments),
  worklistTags: many(worklistTags),
}));

export const studyStatusHistoryRelations = relations(studyStatusHistory, ({ one }) => ({
  study: one(studies, { fields: [studyStatusHistory.studyId], references: [studies.id] }),
  changedByUser: one(users, { fields: [studyStatusHistory.changedBy], references: [users.id] }),
}));

export const patientDocumentsRelations = relations(patientDocuments, ({ one }) => ({
  study: one(studies, { fields: [patientDocuments.studyId], references: [studies.id] }),
  file: one(storedFiles, { fields: [patientDocuments.fileId], references: [storedFiles.id] }),
}));

export const reportsRelations = relations(reports, ({ one, many }) => ({
  study: one(studies, { fields: [reports.studyId], references: [studies.id] }),
  pdfFile: one(storedFiles, { fields: [reports.pdfFileId], references: [storedFiles.id] }),
  versions: many(reportVersions),
  images: many(reportImages),
  signatures: many(reportSignatures),
}));

export const reportVersionsRelations = relations(reportVersions, ({ one }) => ({
  report: one(reports, { fields: [reportVersions.reportId], references: [reports.id] }),
}));

export const reportImagesRelations = relations(reportImages, ({ one }) => ({
  report: one(reports, { fields: [reportImages.reportId], references: [reports.id] }),
  file: one(storedFiles, { fields: [reportImages.fileId], references: [storedFiles.id] }),
}));

export const reportSignaturesRelations = relations(reportSignatures, ({ one }) => ({
  report: one(reports, { fields: [reportSignatures.reportId], references: [reports.id] }),
  user: one(users, { fields: [reportSignatures.userId], references: [users.id] }),
}));

export const templatesRelations = relations(templates, ({ one }) => ({
  owner: one(users, { fields: [templates.ownerUserId], references: [users.id] }),
}));

export const macrosRelations = relations(macros, ({ one }) => ({
  user: one(users, { fields: [macros.userId], references: [users.id] }),
}));

export const tagsRelations = relations(tags, ({ many }) => ({
  worklistTags: many(worklistTags),
}));

export const worklistTagsRelations = relations(worklistTags, ({ one }) => ({
  study: one(studies, { fields: [worklistTags.studyId], references: [studies.id] }),
  tag: one(tags, { fields: [worklistTags.tagId], references: [tags.id] }),
  user: one(users, { fields: [worklistTags.userId], references: [users.id] }),
}));
