// Shared fixtures of the auth unit tests: users, session answers and in-memory cross-tab parts.
import {
  NO_CAPABILITIES,
  type TFacility,
  type TSessionResponse,
  type TUser,
  type TUserDetails,
} from '@ris/domain';
import type { ChannelLike } from './cross-tab.ts';

export const ORG_ID = '00000000-0000-4000-8000-000000000001';
export const FACILITY: TFacility = {
  id: '00000000-0000-4000-8000-0000000000f1',
  organisation_fk: ORG_ID,
  parent_facility_fk: null,
  name: 'City General Hospital',
  code: 'CGH',
  address: null,
  phone: null,
  email: null,
  time_zone: 'Asia/Kolkata',
  status: 'ACTIVE',
  letterhead_enabled: false,
};

export function buildUser(patch: Partial<TUser> = {}): TUser {
  return {
    id: '00000000-0000-4000-8000-0000000000a1',
    email: 'radiologist@demo.test',
    role: 'RADIOLOGIST',
    first_name: 'Asha',
    last_name: 'Rao',
    display_name: 'Dr Asha Rao',
    status: 'ACTIVE',
    organisation_fk: ORG_ID,
    facility_fks: [FACILITY.id],
    user_type: 'RADIOLOGIST',
    radiologist_description: null,
    staff_kind: null,
    has_signature: false,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...patch,
  };
}

export function buildDetails(user: TUser, facilities: TFacility[] = [FACILITY]): TUserDetails {
  return {
    ...user,
    radiologist_details: {
      user_type: 'RADIOLOGIST',
      facility_fks: facilities.map((f) => f.id),
      description: null,
    },
    transcriptionist_details: null,
    facility_details: null,
    facilities,
    capabilities: { ...NO_CAPABILITIES, assign_self: true, tag_studies: true, use_templates: true },
  };
}

export function sessionResponse(
  idToken: string,
  user: TUser = buildUser(),
  expiresIn = 3600,
): TSessionResponse {
  return { id_token: idToken, refresh_token: `refresh-of-${idToken}`, expires_in: expiresIn, user };
}

/** BroadcastChannel between "tabs" of one test: a message reaches every other channel, asynchronously. */
export function createChannelHub<M>() {
  const members = new Set<(message: unknown) => void>();
  const sent: M[] = [];
  function connect(): ChannelLike<M> {
    const own = new Set<(message: unknown) => void>();
    return {
      postMessage(message) {
        sent.push(message);
        const copy: unknown = structuredClone(message);
        for (const deliver of members) if (!own.has(deliver)) queueMicrotask(() => deliver(copy));
      },
      subscribe(listener) {
        own.add(listener);
        members.add(listener);
        return () => {
          own.delete(listener);
          members.delete(listener);
        };
      },
      close() {
        for (const listener of own) members.delete(listener);
        own.clear();
      },
    };
  }
  return { connect, sent };
}

/** A promise with its resolve/reject handed out, to hold a fake server answer back. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
