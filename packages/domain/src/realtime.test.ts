import { describe, expect, it } from 'vitest';
import {
  GENERAL_TOPIC,
  REALTIME_MESSAGE_TYPES,
  SOCKET_PATH,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MS,
  SOCKET_SERVER_DISCONNECT_RETRY_MS,
  SOCKET_TRANSPORTS,
  WORKLIST_TOPIC,
  ZListenTopicPayload,
  ZRealtimeMessageType,
  notificationTopic,
  parseRealtimeTopic,
  worklistItemTopic,
} from './realtime.ts';

describe('realtime constants', () => {
  it('matches the client contract', () => {
    expect(SOCKET_PATH).toBe('/ws/');
    expect(SOCKET_TRANSPORTS).toEqual(['websocket']);
    expect(SOCKET_RECONNECTION_ATTEMPTS).toBe(5);
    expect(SOCKET_RECONNECTION_DELAY_MS).toBe(3000);
    expect(SOCKET_SERVER_DISCONNECT_RETRY_MS).toBe(3000);
    expect(REALTIME_MESSAGE_TYPES).toEqual([
      'worklist-status-update',
      'insert-report-content',
      'user-notification',
      'dictation-recordings-changed',
    ]);
    expect(ZRealtimeMessageType.safeParse('other').success).toBe(false);
  });
});

describe('topics', () => {
  it('builds topic names', () => {
    expect(GENERAL_TOPIC).toBe('general');
    expect(WORKLIST_TOPIC).toBe('worklist');
    expect(worklistItemTopic('42')).toBe('worklist-42');
    expect(notificationTopic('u-1')).toBe('notification-u-1');
  });

  it('refuses an empty id', () => {
    expect(() => worklistItemTopic('')).toThrow(RangeError);
    expect(() => notificationTopic(' ')).toThrow(RangeError);
  });

  it('parses what it builds', () => {
    const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    expect(parseRealtimeTopic(GENERAL_TOPIC)).toEqual({ kind: 'general' });
    expect(parseRealtimeTopic(WORKLIST_TOPIC)).toEqual({ kind: 'worklist' });
    expect(parseRealtimeTopic(worklistItemTopic(id))).toEqual({ kind: 'worklist-item', worklistId: id });
    expect(parseRealtimeTopic(notificationTopic(id))).toEqual({ kind: 'notification', userId: id });
  });

  it('returns null for anything else', () => {
    for (const topic of ['', 'worklist-', 'notification-', 'notifications-1', 'General', 'report-1']) {
      expect(parseRealtimeTopic(topic)).toBeNull();
    }
  });

  it('validates the listen_topic payload', () => {
    expect(ZListenTopicPayload.parse({ topic: 'general' })).toEqual({ topic: 'general' });
    expect(ZListenTopicPayload.safeParse({ topic: '' }).success).toBe(false);
    expect(ZListenTopicPayload.safeParse({}).success).toBe(false);
  });
});
