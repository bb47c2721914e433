import { describe, expect, it } from 'vitest';
import { EMAIL_LINK_PATH, PASSWORD_RESET_PATH } from '@ris/domain';
import { PATHS } from './paths.ts';

describe('paths', () => {
  it('serves the pages the server links to from its e-mails', () => {
    expect(PASSWORD_RESET_PATH).toBe(PATHS.forgotPassword);
    expect(EMAIL_LINK_PATH).toBe(PATHS.login);
  });
});
