// Hocuspocus (Yjs documents of reports) on the app's own HTTP server at COLLABORATION_PATH: one
// extension per concern (authentication, persistence, API updates, Redis), each in its own file.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus, type Extension, type WebSocketLike } from '@hocuspocus/server';
import crossws from 'crossws/adapters/node';
import { SOCKET_PATH } from '@ris/domain';
import type { FastifyInstance } from 'fastify';
import { watchCollaborationAccess } from './access-watch.ts';
import { ApiUpdatesExtension } from './api-updates.extension.ts';
import { authenticationExtension } from './authentication.extension.ts';
import type { TCollaborationContext } from './collaboration-context.ts';
import { persistenceExtension } from './persistence.extension.ts';
import { redisClaim, redisExtension } from './redis.extension.ts';
import { updateGuardExtension } from './update-guard.extension.ts';
import { upgradePathClaimed } from '../http/upgrade-paths.ts';

/** Where the browser's HocuspocusProvider connects: ws(s)://{host}/collab. */
export const COLLABORATION_PATH = '/collab';

/**
 * Largest WebSocket message accepted: a long report's changes fit; larger ones close the connection
 * (the whole document is capped too, update-guard.extension.ts and store-guards.ts).
 */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/** How long shutdown waits for open documents to be stored before it goes on (ms). */
const SHUTDOWN_STORE_TIMEOUT_MS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The collaboration server (apps/server/src/collaboration). Features emit app.events instead. */
    collaboration: Hocuspocus<TCollaborationContext>;
  }
}

/** How long an upgrade request no handler took may stay open (engine.io's destroyUpgradeTimeout). */
const UNCLAIMED_UPGRADE_MS = 1_000;

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0] ?? '';
}

/**
 * socket.io no longer ends upgrade requests that are not its own (destroyUpgrade: false), so one that
 * nobody takes (neither /ws/ nor /collab, nor any handler added later) is ended here, as engine.io
 * would have: answered 404 unless a handler has written to it within a second.
 */
function endIfUnclaimed(socket: Duplex & { bytesWritten?: number }): void {
  setTimeout(() => {
    if (socket.writable && !socket.destroyed && (socket.bytesWritten ?? 0) === 0) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  }, UNCLAIMED_UPGRADE_MS).unref();
}

/**
 * Attaches the collaboration server to the app: WebSocket upgrades to COLLABORATION_PATH go to
 * Hocuspocus (through crossws, as Hocuspocus 4 integrates with any Node server); socket.io leaves
 * them alone (destroyUpgrade: false in realtime-server.ts) and other paths are not touched here.
 * Closed with the app: open documents are stored first.
 */
export async function registerCollaboration(app: FastifyInstance): Promise<void> {
  const { config, database } = app.deps;
  const log = app.log.child({ component: 'collaboration' });
  const redis = config.redisUrl ? await redisExtension(config.redisUrl) : null;
  for (const client of redis ? [redis.pub, redis.sub] : []) {
    client.on('error', (error: unknown) =>
      log.error({ err: error }, 'collaboration Redis connection failed'),
    );
  }
  const apiUpdates = new ApiUpdatesExtension({
    database,
    events: app.events,
    log,
    claim: redis ? redisClaim(redis) : null,
  });
  const extensions: Extension[] = [
    authenticationExtension({
      db: database.db,
      verifier: app.identity.verifier,
      cache: app.identity.context.cache,
    }),
    updateGuardExtension(),
    persistenceExtension({ db: database.db, events: app.events, log, apiUpdates }),
    apiUpdates,
  ];
  if (redis) extensions.push(redis);
  const hocuspocus = new Hocuspocus<TCollaborationContext>({
    name: 'ris-collaboration',
    quiet: true,
    debounce: config.collaboration.storeDebounceMs,
    maxDebounce: config.collaboration.storeMaxDebounceMs,
    unloadImmediately: true,
    extensions,
  });
  app.decorate('collaboration', hocuspocus);
  await apiUpdates.start();
  const stopWatchingAccess = await watchCollaborationAccess({
    hocuspocus,
    database,
    events: app.events,
    cache: app.identity.context.cache,
    log,
  });

  const connections = new Map<string, ReturnType<typeof hocuspocus.handleConnection>>();
  const websockets = crossws({
    serverOptions: { maxPayload: MAX_MESSAGE_BYTES },
    hooks: {
      open(peer) {
        const websocket = peer.websocket as WebSocketLike;
        connections.set(peer.id, hocuspocus.handleConnection(websocket, peer.request));
        log.debug({ socketId: peer.id }, 'collaboration connection opened');
      },
      message(peer, message) {
        connections.get(peer.id)?.handleMessage(message.uint8Array());
      },
      close(peer, event) {
        connections.get(peer.id)?.handleClose({ code: event.code ?? 1000, reason: event.reason ?? '' });
        connections.delete(peer.id);
        log.debug({ socketId: peer.id, code: event.code }, 'collaboration connection closed');
      },
      error(peer, error) {
        log.warn({ err: error, socketId: peer.id }, 'collaboration WebSocket error');
      },
    },
  });
  let closing = false;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = pathOf(request);
    if (pathname !== COLLABORATION_PATH && pathname !== `${COLLABORATION_PATH}/`) {
      if (!pathname.startsWith(SOCKET_PATH) && !upgradePathClaimed(app.server, pathname))
        endIfUnclaimed(socket);
      return;
    }
    if (closing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    websockets.handleUpgrade(request, socket, head).catch((error: unknown) => {
      log.warn({ err: error }, 'collaboration WebSocket upgrade failed');
      socket.destroy();
    });
  };
  app.server.on('upgrade', onUpgrade);

  // Before the HTTP server stops: disconnect the editors and store every open document.
  app.addHook('preClose', async () => {
    // Editors reconnect at once when their connection ends: they are refused until the server is gone.
    closing = true;
    await stopWatchingAccess();
    await apiUpdates.stop();
    await storeAndUnloadAll(hocuspocus);
    websockets.closeAll(1001, 'server shutting down', true);
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
  });
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
  });
}

/** Closes every connection, runs pending stores now, and waits (bounded) until no document is open. */
async function storeAndUnloadAll(hocuspocus: Hocuspocus<TCollaborationContext>): Promise<void> {
  if (hocuspocus.getDocumentsCount() === 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, SHUTDOWN_STORE_TIMEOUT_MS);
    hocuspocus.configuration.extensions.push({
      async afterUnloadDocument({ instance }) {
        if (instance.getDocumentsCount() === 0) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
    hocuspocus.closeConnections();
    hocuspocus.flushPendingStores();
  });
}
