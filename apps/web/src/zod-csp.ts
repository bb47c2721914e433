// The web build resolves `zod` to this module (vite.config.ts): wherever zod loads, this setting
// comes with it and precedes the first parse. The Content-Security-Policy forbids eval, so zod must
// not probe for `new Function` (each probe is a CSP violation report).
import * as zod from 'zod/v4';

zod.config({ jitless: true });

export * from 'zod/v4';
export { zod as z };
export default zod;
