// Collaboration concern 5: what a client may put into a report's document. Checked on every
// document update a read-write connection sends, before Hocuspocus applies (and relays) it.
import type { beforeSyncPayload, Extension } from '@hocuspocus/server';
import { REPORT_FRAGMENT } from '@ris/editor';
import { decodeUpdate, encodeStateAsUpdate, getItem, Item, type Doc, type ID } from 'yjs';
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
function writesOutsideFragment(structs: TStructs): boolean {
  return structs.some(
    (struct) =>
      struct instanceof Item &&
      typeof struct.parent === 'string' &&
      (struct.parent !== REPORT_FRAGMENT || struct.parentSub !== null),
  );
}

type TStructs = ReturnType<typeof decodeUpdate>['structs'];

/** The update's structs, or null when it does not decode. */
function structsOf(update: Uint8Array): TStructs | null {
  try {
    return decodeUpdate(update).structs;
  } catch {
    return null;
  }
}

/**
 * Deepest nesting of items (elements, texts in them, their characters) a document may reach. The
 * editor's deepest lists stay far below it; Yjs walks a nested tree recursively (integrating and
 * collecting a deleted one), so a tree nested 20,000 deep by a client threw on every store.
 */
export const MAX_DOCUMENT_NESTING = 200;
export const TOO_DEEP = { code: 4400, reason: 'too-deep' };

/** Levels of an update's items by client, in clock order (an update lists each client's in order). */
class UpdateLevels {
  readonly #byClient = new Map<number, { start: number; end: number; level: number }[]>();

  add(id: ID, length: number, level: number): void {
    const runs = this.#byClient.get(id.client) ?? [];
    runs.push({ start: id.clock, end: id.clock + length, level });
    this.#byClient.set(id.client, runs);
  }

  /** The level of the item holding `id` (any of its characters), if the update has it. */
  of(id: ID): number | undefined {
    const runs = this.#byClient.get(id.client) ?? [];
    let [low, high] = [0, runs.length - 1];
    while (low <= high) {
      const middle = (low + high) >> 1;
      const run = runs[middle];
      if (!run) break;
      if (id.clock < run.start) high = middle - 1;
      else if (id.clock >= run.end) low = middle + 1;
      else return run.level;
    }
    return undefined;
  }
}

/** The level of an item already in the document (1: a child of the fragment), at most limit + 1. */
function levelInDocument(document: Doc, id: ID, limit: number): number {
  let item: Item | null;
  try {
    const found = getItem(document.store, id);
    item = found instanceof Item ? found : null;
  } catch {
    return 0;
  }
  let level = 0;
  while (item && level <= limit) {
    level += 1;
    const parent: unknown = item.parent;
    item = parent && typeof parent === 'object' && '_item' in parent ? (parent._item as Item | null) : null;
  }
  return level;
}

/**
 * Whether the update nests items deeper than MAX_DOCUMENT_NESTING: each item is a level below its
 * parent (named by id, in the update or already in the document) or at its neighbour's level.
 */
function nestsTooDeep(structs: TStructs, document: Doc, limit = MAX_DOCUMENT_NESTING): boolean {
  const levels = new UpdateLevels();
  const levelOf = (id: ID) => levels.of(id) ?? levelInDocument(document, id, limit);
  for (const struct of structs) {
    if (!(struct instanceof Item)) continue;
    const parent: unknown = struct.parent;
    const neighbour = struct.origin ?? struct.rightOrigin;
    const level =
      typeof parent === 'string'
        ? 1
        : parent && typeof parent === 'object' && 'client' in parent
          ? levelOf(parent as ID) + 1
          : neighbour
            ? levelOf(neighbour)
            : 1;
    if (level > limit) return true;
    levels.add(struct.id, struct.length, level);
  }
  return false;
}

/**
 * Refuses (closing the connection) an update that writes outside the report fragment, nests deeper
 * than MAX_DOCUMENT_NESTING, or that would
 * take the document's Yjs state past MAX_DOCUMENT_STATE_BYTES. The size is tracked cheaply (the
 * state's size at load and store plus the updates since); the state is measured only near the cap.
 */
export function updateGuardExtension(): Extension {
  return {
    extensionName: 'ris-update-guard',

    async beforeSync({ connection, document, type, payload }: beforeSyncPayload) {
      if (connection.readOnly || !UPDATE_MESSAGES.has(type)) return;
      const structs = structsOf(payload);
      if (!structs || writesOutsideFragment(structs)) throw new RefusedUpdate(FOREIGN_CONTENT);
      if (nestsTooDeep(structs, document)) throw new RefusedUpdate(TOO_DEEP);
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
