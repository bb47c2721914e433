// Collaboration concern 5: what a client may put into a report's document. Checked on every
// document update a read-write connection sends, before Hocuspocus applies (and relays) it.
import type { beforeSyncPayload, Extension } from '@hocuspocus/server';
import { REPORT_FRAGMENT } from '@ris/editor';
import { decodeUpdate, encodeStateAsUpdate, Item } from 'yjs';
import { documentStates } from './collaboration-context.ts';
import { REPORT_TOO_LARGE } from './store-guards.ts';

/** Largest Yjs state of a report's document (the report's HTML is capped at store, see store-guards.ts). */
export const MAX_DOCUMENT_STATE_BYTES = 4 * 1024 * 1024;

/** Close reasons of refused updates (the provider's `close` event carries them). */
export const FOREIGN_CONTENT = { code: 4400, reason: 'foreign-content' };

/** y-protocols sync message types that carry a document update (1: sync step 2, 2: update). */
export const UPDATE_MESSAGES = new Set([1, 2]);

/**
 * Thrown from beforeSync: Hocuspocus does not apply the update and closes the connection with this
 * code and reason (Connection.processMessages).
 */
export class RefusedUpdate extends Error {
  readonly code: number;
  readonly reason: string;

  constructor({ code, reason }: { code: number; reason: string }) {
    super(`collaborative update refused: ${reason}`);
    this.name = 'RefusedUpdate';
    this.code = code;
    this.reason = reason;
  }
}

/**
 * True when the update writes outside the report fragment's list of nodes: into another root type
 * (the editor only uses REPORT_FRAGMENT) or into the fragment's map. Items whose parent is given by
 * their neighbours go where those are, so only items that name a root can start such content.
 */
function writesOutsideFragment(update: Uint8Array): boolean {
  let structs;
  try {
    structs = decodeUpdate(update).structs;
  } catch {
    return true;
  }
  return structs.some(
    (struct) =>
      struct instanceof Item &&
      typeof struct.parent === 'string' &&
      (struct.parent !== REPORT_FRAGMENT || struct.parentSub !== null),
  );
}

/**
 * Refuses (closing the connection) an update that writes outside the report fragment, or that would
 * take the document's Yjs state past MAX_DOCUMENT_STATE_BYTES. The size is tracked cheaply (the
 * state's size at load and store plus the updates since); the state is measured only near the cap.
 */
export function updateGuardExtension(): Extension {
  return {
    extensionName: 'ris-update-guard',

    async beforeSync({ connection, document, type, payload }: beforeSyncPayload) {
      if (connection.readOnly || !UPDATE_MESSAGES.has(type)) return;
      if (writesOutsideFragment(payload)) throw new RefusedUpdate(FOREIGN_CONTENT);
      const state = documentStates.get(document);
      if (!state) return;
      if (state.approxStateBytes + payload.byteLength > MAX_DOCUMENT_STATE_BYTES) {
        state.approxStateBytes = encodeStateAsUpdate(document).byteLength;
        if (state.approxStateBytes + payload.byteLength > MAX_DOCUMENT_STATE_BYTES) {
          throw new RefusedUpdate(REPORT_TOO_LARGE);
        }
      }
      state.approxStateBytes += payload.byteLength;
    },
  };
}
