// The database schema: every table, enum and relation, for drizzle-kit and for drizzle({ schema }).
export * from './audit.ts';
export * from './auth.ts';
export * from './columns.ts';
export * from './enums.ts';
export * from './files.ts';
export * from './jobs.ts';
export * from './notifications.ts';
export * from './organisations.ts';
export * from './pacs.ts';
export * from './patients.ts';
export * from './preferences.ts';
export * from './relations.ts';
export * from './reports.ts';
export * from './studies.ts';
export * from './tags.ts';
export * from './templates.ts';
export * from './users.ts';
