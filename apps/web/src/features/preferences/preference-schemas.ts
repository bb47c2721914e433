/**
 * The schema of the preference answers, imported on first use (`await import('./preference-schemas.ts')`):
 * the sign-in wiring imports the preference sync, and the sign-in screen loads no zod (see
 * api/auth-schemas.ts).
 */
export { ZUserPreferences } from '@ris/domain';
