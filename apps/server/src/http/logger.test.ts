import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { logRequest, loggerOptions } from './logger.ts';

describe('request logging', () => {
  it('keeps the path and the names of query parameters, never their values', () => {
    expect(
      logRequest({
        method: 'GET',
        url: '/forgot-password?token=SECRET&token=again&next=%2Fx',
        ip: '127.0.0.1',
      }),
    ).toEqual({
      method: 'GET',
      url: '/forgot-password',
      query_keys: ['token', 'next'],
      host: undefined,
      remoteAddress: '127.0.0.1',
    });
    expect(logRequest({ method: 'GET', url: '/api/v1/worklist' })).toMatchObject({ url: '/api/v1/worklist' });
    expect(logRequest({ method: 'GET', url: '/api/v1/worklist' })).not.toHaveProperty('query_keys');
  });

  it('writes no token or search text into the log of a real request', async () => {
    let output = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const options = loggerOptions({ logLevel: 'info', logPretty: false });
    const app = Fastify({ logger: { ...(typeof options === 'object' ? options : {}), stream } });
    app.get('/login', async () => 'ok');
    await app.inject({
      method: 'GET',
      url: '/login?email_link_token=LIVE_TOKEN_123&search=Zo%C3%AB%20M%C3%BCller',
    });
    await app.close();
    expect(output).toContain('"url":"/login"');
    expect(output).toContain('email_link_token');
    expect(output).not.toContain('LIVE_TOKEN_123');
    expect(output).not.toMatch(/M(ü|%C3%BC)ller/);
  });
});
