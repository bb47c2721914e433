import { describe, expect, it } from 'vitest';
import {
  AUGNITO_DEFAULT_SERVER_URL,
  augnitoActionCommand,
  augnitoStreamUrl,
  readAugnitoMessage,
  type TAugnitoMessage,
} from './augnito-protocol.ts';

describe('augnitoStreamUrl', () => {
  it("writes the content-type as Augnito's clients do and percent-encodes the other values", () => {
    const url = augnitoStreamUrl(AUGNITO_DEFAULT_SERVER_URL, {
      accountCode: 'ACC 1',
      accessKey: 'k+y/=&x',
      lmId: '201',
      userTag: 'user-1',
      sourceApp: 'ris',
      noiseCut: true,
      loginToken: 'tok',
    });
    expect(url).toContain(
      'content-type=audio/x-raw,+layout=(string)interleaved,+rate=(int)16000,+format=(string)S16LE,+channels=(int)1&',
    );
    const params = new URL(url).searchParams;
    expect(new URL(url).origin + new URL(url).pathname).toBe('wss://api.augnito.ai/v2/speechapi');
    expect(params.get('content-type')).toBe(
      'audio/x-raw, layout=(string)interleaved, rate=(int)16000, format=(string)S16LE, channels=(int)1',
    );
    expect(Object.fromEntries([...params].filter(([name]) => name !== 'content-type'))).toEqual({
      accountcode: 'ACC 1',
      accesskey: 'k+y/=&x',
      lmid: '201',
      usertag: 'user-1',
      sourceapp: 'ris',
      noisect: '1',
      logintoken: 'tok',
    });
  });

  it('keeps a query the server address already has', () => {
    const url = augnitoStreamUrl('wss://eu.example.test/v2/speechapi?region=eu', {
      accountCode: 'a',
      accessKey: 'k',
      lmId: 'l',
      userTag: 'u',
      sourceApp: 's',
      noiseCut: false,
    });
    const params = new URL(url).searchParams;
    expect(params.get('region')).toBe('eu');
    expect(params.get('noisect')).toBe('0');
    expect(params.has('logintoken')).toBe(false);
  });
});

describe('readAugnitoMessage', () => {
  const cases: [raw: string, message: TAugnitoMessage][] = [
    ['PING', { kind: 'ping' }],
    [
      '{"Type":"meta","Event":{"Type":"INVALID_AUTH_CREDENTIALS","Value":"x"}}',
      { kind: 'meta', eventType: 'INVALID_AUTH_CREDENTIALS', jobId: null },
    ],
    ['{"Type":"meta","JobID":"j1","Event":{}}', { kind: 'meta', eventType: null, jobId: 'j1' }],
    ['{"Result":{"Final":false,"Transcript":"the liv"}}', { kind: 'partial', transcript: 'the liv' }],
    [
      '{"Result":{"Final":true,"Transcript":"the liver","IsCommand":false,"Action":""}}',
      { kind: 'final', transcript: 'the liver', isCommand: false, action: '' },
    ],
    [
      '{"Result":{"Final":true,"Transcript":"new line","IsCommand":true,"Action":"newline"}}',
      { kind: 'final', transcript: 'new line', isCommand: true, action: 'newline' },
    ],
    ['{"Type":"ACK","Data":"RECEIVED_EOS"}', { kind: 'ack', receivedEos: true }],
    ['{"Type":"ACK","Index":12}', { kind: 'ack', receivedEos: false }],
    ['{"Type":"ERROR","Data":"Timeout exceeded"}', { kind: 'error', data: 'Timeout exceeded' }],
    ['{"Type":"STATUS","Data":"x"}', { kind: 'other' }],
    ['not json', { kind: 'other' }],
    ['[1,2]', { kind: 'other' }],
  ];
  it.each(cases)('%s', (raw, message) => {
    expect(readAugnitoMessage(raw)).toEqual(message);
  });
});

describe('augnitoActionCommand', () => {
  it.each([
    ['newline', 'new-line'],
    ['NewParagraph', 'new-paragraph'],
    ['delete', 'delete-that'],
    ['Undo', 'undo'],
    ['next_field', 'next-field'],
    ['stopmic', 'stop-dictation'],
    ['selectall', null],
    ['', null],
  ])('%j → %j', (action, command) => {
    expect(augnitoActionCommand(action)).toBe(command);
  });
});
