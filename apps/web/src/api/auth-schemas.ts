/**
 * The schemas of the sign-in screen and of every error body, imported on first use (`await
 * import('./auth-schemas.ts')`): the sign-in screen then shows before zod (about 26 KB of gzipped
 * JavaScript) has downloaded, and a signed-in screen that needs zod has it already.
 */
export {
  ZAuthConfig,
  ZEmail,
  ZErrorBody,
  ZNeutralResponse,
  ZPasswordPolicy,
  ZSessionResponse,
  ZUser,
  ZUserDetails,
} from '@ris/domain';
