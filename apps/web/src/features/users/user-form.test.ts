import type { TManagedUser } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { checkDraft, draftOf, existingUser, signatureFileError, userFormData } from './user-form.ts';

const ORG = '00000000-0000-4000-8000-000000000001';
const F1 = '00000000-0000-4000-8000-0000000000f1';
const F2 = '00000000-0000-4000-8000-0000000000f2';
const ADMIN_ID = '00000000-0000-4000-8000-0000000000a0';

const radiologist: TManagedUser = {
  id: '00000000-0000-4000-8000-0000000000b1',
  email: 'asha@clinic.test',
  role: 'RADIOLOGIST',
  first_name: 'Asha',
  last_name: 'Rao',
  display_name: 'Dr Asha Rao',
  status: 'ACTIVE',
  organisation_fk: ORG,
  facility_fks: [F1],
  user_type: 'RADIOLOGIST',
  radiologist_description: 'MD Radiology',
  radiologist_details: { user_type: 'RADIOLOGIST', facility_fks: [F1], description: 'MD Radiology' },
  transcriptionist_details: null,
  facility_details: null,
  signature_url: null,
  invitation_pending: false,
  last_sign_in_at: null,
  created_at: '2026-11-20T08:00:00.000Z',
  updated_at: '2026-11-20T08:00:00.000Z',
  abilities: { edit: true, disable: true, reset_password: true, resend_invitation: false },
};

/** The form's entries as [name, value] pairs (files by name). */
const entries = (form: FormData) =>
  [...form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : value.name]);

describe('user form', () => {
  it('checks the required fields, the e-mail and the facilities of the role before sending', () => {
    expect(checkDraft(draftOf(null))).toEqual({
      role: 'Choose a role',
      first_name: 'First name is required',
      last_name: 'Last name is required',
      email: 'E-mail is required',
    });
    const draft = { ...draftOf(radiologist), email: 'not-an-address', facility_fks: [] };
    expect(checkDraft(draft)).toEqual({
      email: 'Enter a valid e-mail address',
      facility_fks: 'Choose at least one facility',
    });
    expect(checkDraft({ ...draftOf(radiologist), role: 'REFERRING_PHYSICIAN', facility_fks: [] })).toEqual(
      {},
    );
    expect(checkDraft({ ...draftOf(radiologist), role: 'FACILITY_ADMIN', facility_fks: [F1, F2] })).toEqual({
      facility_fks: 'A facility administrator has one facility',
    });
  });

  it('creates a radiologist with every field, the facilities repeated and the signature file', () => {
    const draft = {
      ...draftOf(null, 'RADIOLOGIST'),
      first_name: ' Ravi ',
      last_name: 'Kumar',
      email: 'ravi@clinic.test',
      user_type: 'REPORTER' as const,
      radiologist_description: 'DNB Radiology\nReg. 12345',
      facility_fks: [F1, F2],
    };
    const signature = new File(['png'], 'sig.png', { type: 'image/png' });
    const form = userFormData(draft, { byUserId: ADMIN_ID, organisationId: ORG, signature });
    expect(entries(form)).toEqual([
      ['by_user_id', ADMIN_ID],
      ['organisation_fk', ORG],
      ['role', 'RADIOLOGIST'],
      ['first_name', 'Ravi'],
      ['last_name', 'Kumar'],
      ['email', 'ravi@clinic.test'],
      ['user_type', 'REPORTER'],
      ['radiologist_description', 'DNB Radiology\nReg. 12345'],
      ['facility_fks', F1],
      ['facility_fks', F2],
      ['signature_file', 'sig.png'],
    ]);
  });

  it('sends only what changed of an existing user, and never role or e-mail of oneself', () => {
    const unchanged = userFormData(draftOf(radiologist), {
      byUserId: ADMIN_ID,
      original: existingUser(radiologist),
    });
    expect(entries(unchanged)).toEqual([
      ['id', radiologist.id],
      ['by_user_id', ADMIN_ID],
    ]);
    const moved = userFormData(
      { ...draftOf(radiologist), display_name: 'Dr A. Rao', facility_fks: [F2, F1] },
      { byUserId: ADMIN_ID, original: existingUser(radiologist), deleteSignature: true },
    );
    expect(entries(moved)).toEqual([
      ['id', radiologist.id],
      ['by_user_id', ADMIN_ID],
      ['display_name', 'Dr A. Rao'],
      ['facility_fks', F2],
      ['facility_fks', F1],
      ['delete_signature', 'true'],
    ]);
    const own = userFormData(
      { ...draftOf(radiologist), role: 'ADMIN', email: 'me@else.test', first_name: 'Ash' },
      { byUserId: radiologist.id, original: existingUser(radiologist), self: true },
    );
    expect(entries(own)).toEqual([
      ['id', radiologist.id],
      ['by_user_id', radiologist.id],
      ['first_name', 'Ash'],
    ]);
  });

  it('refuses a signature that is not a PNG or JPEG, or over 1 MB, before upload', () => {
    expect(signatureFileError(new File(['x'], 'a.gif', { type: 'image/gif' }))).toBe(
      'a.gif: choose a PNG or JPEG image',
    );
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    expect(signatureFileError(big)).toBe('big.png: the image must be at most 1 MB');
    expect(signatureFileError(new File(['x'], 'ok.jpg', { type: 'image/jpeg' }))).toBeNull();
  });
});
