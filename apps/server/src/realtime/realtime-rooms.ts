import type { TListenTopicAck, TRealtimeMessage } from '@ris/domain';
import type { Server, Socket } from 'socket.io';
import type { TPrincipal } from '../auth/principal.ts';

/**
 * socket.io rooms. Topics are what clients ask for; rooms are what the server delivers to, so a
 * worklist subscription never becomes "everyone in one room": a socket joins the rooms of exactly
 * what its user may see, and a message goes only to the rooms of the item's facility.
 */
export const rooms = {
  /** Every socket of one user (revocation: find and disconnect them on this replica). */
  user: (userId: string) => `user:${userId}`,
  /** Staff subscribed to the worklist who work at this facility. */
  facility: (facilityId: string) => `facility:${facilityId}`,
  /** Admins subscribed to the worklist: every facility of the organisation, including new ones. */
  organisationWorklist: (organisationId: string) => `org-worklist:${organisationId}`,
  /** Referring physicians subscribed to the worklist: only the studies they referred (by physician). */
  referrer: (referringPhysicianId: string) => `referrer:${referringPhysicianId}`,
  /** The 'worklist-{id}' topic: subscribers of one item the caller could see. */
  item: (studyId: string) => `item:${studyId}`,
  /** The 'notification-{userId}' topic. */
  notification: (userId: string) => `notification:${userId}`,
  /** The 'general' topic, per organisation. */
  general: (organisationId: string) => `general:${organisationId}`,
};

export type TClientToServerEvents = {
  listen_topic: (payload: unknown, ack?: (result: TListenTopicAck) => void) => void;
};

export type TServerToClientEvents = {
  message: (message: TRealtimeMessage) => void;
};

export type TSocketData = {
  /** From the handshake's ID token; its session is checked again whenever the user's sign-in changes. */
  principal: TPrincipal;
  /** Rooms joined for the 'worklist' topic (replaced on every new subscription). */
  worklistRooms: string[] | null;
};

/** socket.io's inter-server events: none. */
type TInterServerEvents = Record<string, never>;

export type TRealtimeServer = Server<
  TClientToServerEvents,
  TServerToClientEvents,
  TInterServerEvents,
  TSocketData
>;
export type TRealtimeSocket = Socket<
  TClientToServerEvents,
  TServerToClientEvents,
  TInterServerEvents,
  TSocketData
>;
