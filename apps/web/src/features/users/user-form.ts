// The create/edit form of a user as plain data: what it starts from, what it checks before sending,
// and the multipart body of POST /user it becomes (spec §7 field names).
import {
  MAX_SIGNATURE_BYTES,
  SIGNATURE_MEDIA_TYPES,
  type TManagedUser,
  type TRadiologistUserType,
  type TRole,
} from '@ris/domain';

export interface TUserDraft {
  role: TRole | '';
  user_type: TRadiologistUserType;
  first_name: string;
  last_name: string;
  display_name: string;
  email: string;
  radiologist_description: string;
  facility_fks: string[];
}

export type TUserField = keyof TUserDraft | 'signature_file';

export const USER_FIELDS: readonly TUserField[] = [
  'role',
  'user_type',
  'first_name',
  'last_name',
  'display_name',
  'email',
  'radiologist_description',
  'facility_fks',
  'signature_file',
];

/** Roles that work in chosen facilities (an admin sees every facility of the organisation). */
export function roleHasFacilities(role: TRole | ''): boolean {
  return role !== '' && role !== 'ADMIN';
}

/** Roles whose work must belong to at least one facility (a referring physician may have none). */
function roleNeedsFacility(role: TRole | ''): boolean {
  return role === 'RADIOLOGIST' || role === 'TRANSCRIPTIONIST' || role === 'FACILITY_ADMIN';
}

export function draftOf(user: TManagedUser | null, defaultRole: TRole | '' = ''): TUserDraft {
  if (!user) {
    return {
      role: defaultRole,
      user_type: 'RADIOLOGIST',
      first_name: '',
      last_name: '',
      display_name: '',
      email: '',
      radiologist_description: '',
      facility_fks: [],
    };
  }
  return {
    role: user.role ?? '',
    user_type: user.user_type ?? user.radiologist_details?.user_type ?? 'RADIOLOGIST',
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: user.display_name,
    email: user.email,
    radiologist_description: user.radiologist_description ?? user.radiologist_details?.description ?? '',
    facility_fks: [...user.facility_fks],
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The checks made before sending (the server checks everything again). */
export function checkDraft(draft: TUserDraft): Partial<Record<TUserField, string>> {
  const errors: Partial<Record<TUserField, string>> = {};
  if (draft.role === '') errors.role = 'Choose a role';
  if (draft.first_name.trim() === '') errors.first_name = 'First name is required';
  if (draft.last_name.trim() === '') errors.last_name = 'Last name is required';
  if (draft.email.trim() === '') errors.email = 'E-mail is required';
  else if (!EMAIL.test(draft.email.trim())) errors.email = 'Enter a valid e-mail address';
  if (roleNeedsFacility(draft.role) && draft.facility_fks.length === 0) {
    errors.facility_fks =
      draft.role === 'FACILITY_ADMIN' ? 'Choose the facility' : 'Choose at least one facility';
  }
  if (draft.role === 'FACILITY_ADMIN' && draft.facility_fks.length > 1) {
    errors.facility_fks = 'A facility administrator has one facility';
  }
  return errors;
}

/** Why a picked signature is refused before upload, or null (PNG or JPEG, at most 1 MB). */
export function signatureFileError(file: File): string | null {
  if (!(SIGNATURE_MEDIA_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name}: choose a PNG or JPEG image`;
  }
  if (file.size > MAX_SIGNATURE_BYTES) {
    return `${file.name}: the image must be at most ${MAX_SIGNATURE_BYTES / 1024 / 1024} MB`;
  }
  return null;
}

/** A user who already exists: their id and what the form showed before any change. */
export interface TExistingUser {
  id: string;
  draft: TUserDraft;
}

export function existingUser(user: TManagedUser): TExistingUser {
  return { id: user.id, draft: draftOf(user) };
}

export interface TSaveOptions {
  /** The caller (by_user_id must be them). */
  byUserId: string;
  /** The user being changed (their id and the form as it started); absent: a new user. */
  original?: TExistingUser | null;
  organisationId?: string | null;
  /** One's own record: role and status are never sent (nobody changes their own). */
  self?: boolean;
  signature?: File | null;
  deleteSignature?: boolean;
}

function differs(a: readonly string[], b: readonly string[]): boolean {
  return a.length !== b.length || [...a].sort().join() !== [...b].sort().join();
}

/**
 * The POST /user body. A new user gets every field; an existing one only what changed (the server
 * keeps the rest). Role-bound fields go only with the role that has them.
 */
export function userFormData(draft: TUserDraft, options: TSaveOptions): FormData {
  const form = new FormData();
  const original = options.original ?? null;
  const before = original?.draft ?? null;
  const put = (name: keyof TUserDraft, value: string) => {
    if (!before || before[name] !== value) form.append(name, value);
  };
  if (original) form.append('id', original.id);
  form.append('by_user_id', options.byUserId);
  if (!original && options.organisationId) form.append('organisation_fk', options.organisationId);
  if (!options.self && draft.role !== '') put('role', draft.role);
  put('first_name', draft.first_name.trim());
  put('last_name', draft.last_name.trim());
  // Left empty: a new user gets "first last", an existing one keeps theirs.
  const displayName = draft.display_name.trim();
  if (displayName !== '') put('display_name', displayName);
  if (!options.self) put('email', draft.email.trim());
  if (draft.role === 'RADIOLOGIST') {
    // A role change to radiologist sends the type even when it is the default.
    if (!before || before.role !== 'RADIOLOGIST' || before.user_type !== draft.user_type) {
      form.append('user_type', draft.user_type);
    }
    put('radiologist_description', draft.radiologist_description.trim());
  }
  if (roleHasFacilities(draft.role)) {
    const changed = !before || before.role !== draft.role || differs(before.facility_fks, draft.facility_fks);
    if (changed) {
      for (const id of draft.facility_fks) form.append('facility_fks', id);
      // One empty value clears them (a referring physician of the whole organisation).
      if (before && draft.facility_fks.length === 0) form.append('facility_fks', '');
    }
  }
  if (options.signature) form.append('signature_file', options.signature, options.signature.name);
  else if (options.deleteSignature) form.append('delete_signature', 'true');
  return form;
}

/** The display name a new user gets when none is typed (the server's default too). */
export function defaultDisplayName(draft: Pick<TUserDraft, 'first_name' | 'last_name'>): string {
  return [draft.first_name.trim(), draft.last_name.trim()].filter(Boolean).join(' ');
}
