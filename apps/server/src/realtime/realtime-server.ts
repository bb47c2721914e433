import { LISTEN_TOPIC_EVENT, SOCKET_PATH, SOCKET_TRANSPORTS } from '@ris/domain';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { watchUserChanges } from '../access/user-changes.ts';
import { authenticateSocket } from './realtime-auth.ts';
import { publishDomainEvents } from './realtime-publisher.ts';
import { listenTopicNow, recheckSocket } from './realtime-recheck.ts';
import { rooms, type TRealtimeServer, type TRealtimeSocket } from './realtime-rooms.ts';
import { connectRedisAdapter } from './redis-adapter.ts';
import { engineErrorShape } from '../http/engine-errors.ts';
import { requestId } from '../http/logger.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The socket.io server at SOCKET_PATH (apps/server/src/realtime). Features emit app.events instead. */
    realtime: TRealtimeServer;
  }
}

/** Clients only send { topic }; anything bigger is refused by the transport. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/**
 * Attaches socket.io to the app's HTTP server: websocket only, same origin (no CORS), every handshake
 * authenticated by the identity module's verifier, each topic authorised, domain events delivered to
 * the rooms allowed to see them, sockets of a revoked or disabled user disconnected at once. Closed
 * with the app.
 */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const { database, config } = app.deps;
  const db = database.db;
  const verifier = app.identity.verifier;
  const io: TRealtimeServer = new Server(app.server, {
    path: SOCKET_PATH,
    transports: [...SOCKET_TRANSPORTS],
    serveClient: false,
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    // Other upgrade handlers (the collaboration server) share this HTTP server: leave their requests be.
    destroyUpgrade: false,
  });
  const redis = config.redisUrl ? await connectRedisAdapter(config.redisUrl, app.log) : null;
  if (redis) io.adapter(redis.adapter);
  app.decorate('realtime', io);
  // engine.io's own HTTP errors in the API's error shape (http/engine-errors.ts).
  io.engine.use(engineErrorShape);

  const cache = app.identity.context.cache;
  io.use(authenticateSocket(verifier, cache));
  io.on('connection', (socket: TRealtimeSocket) => {
    // Every line about this socket carries its id (and its handshake's request id, from the proxy).
    const log = app.log.child({
      socketId: socket.id,
      reqId: requestId(socket.request),
      userId: socket.data.principal.userId,
    });
    log.debug('realtime socket connected');
    socket.on('disconnect', (reason) => log.debug({ reason }, 'realtime socket disconnected'));
    socket.on(LISTEN_TOPIC_EVENT, (payload, ack) => {
      void listenTopicNow({ db, cache, log }, socket, payload).then((result) => {
        if (typeof ack === 'function') ack(result);
      });
    });
  });

  const stopPublishing = publishDomainEvents(io, app.events, db, app.log);
  /** Checks again this replica's sockets of one user (or of everyone): each replica checks its own. */
  async function recheckSockets(userId: string | null): Promise<void> {
    const namespace = io.of('/');
    const byUser = new Map<string, TRealtimeSocket[]>();
    const ids = userId ? (namespace.adapter.rooms.get(rooms.user(userId)) ?? []) : namespace.sockets.keys();
    for (const id of ids) {
      const socket = namespace.sockets.get(id);
      if (!socket) continue;
      const list = byUser.get(socket.data.principal.userId) ?? [];
      byUser.set(socket.data.principal.userId, [...list, socket]);
    }
    for (const [user, sockets] of byUser) {
      // Read fresh (not the cached entry): this news may reach us before the identity's own listener.
      const state = await cache.load(user);
      await Promise.all(sockets.map((socket) => recheckSocket(db, socket, state)));
    }
  }
  function recheckAll(userId: string | null): void {
    recheckSockets(userId).catch((error: unknown) =>
      app.log.error({ err: error, userId }, 'realtime recheck failed'),
    );
  }
  const stopWatching = await watchUserChanges(
    database,
    { changed: (userId) => recheckAll(userId), resync: () => recheckAll(null) },
    app.log,
  );

  // Before the HTTP server stops: end the websockets, or it would wait for them.
  app.addHook('preClose', async () => {
    stopPublishing();
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await stopWatching();
    await io.of('/').adapter.close();
    await redis?.close();
  });
}
