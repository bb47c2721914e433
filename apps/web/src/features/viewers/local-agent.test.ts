import { describe, expect, it } from 'vitest';
import { agentReaches, findLocalAgent, LOCAL_AGENT_URL } from './local-agent.ts';

const answering = (status: number, body: unknown): typeof fetch =>
  (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('findLocalAgent (the §7 call to port 8843)', () => {
  it('asks 127.0.0.1:8843 and takes the token of a ris-viewer-agent', async () => {
    const asked: string[] = [];
    const fetcher = (async (input: string) => {
      asked.push(input);
      return new Response(JSON.stringify({ name: 'ris-viewer-agent', token: 'x'.repeat(32) }));
    }) as typeof fetch;
    expect(await findLocalAgent(fetcher)).toEqual({ token: 'x'.repeat(32) });
    expect(asked).toEqual([`${LOCAL_AGENT_URL}/`]);
    expect(LOCAL_AGENT_URL).toBe('http://127.0.0.1:8843');
  });

  it('is null when nothing listens, the agent refuses this RIS, or something else answers', async () => {
    const refused = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await findLocalAgent(refused)).toBeNull();
    expect(await findLocalAgent(answering(403, { error: { code: 'FORBIDDEN', message: 'no' } }))).toBeNull();
    expect(
      await findLocalAgent(answering(200, { name: 'something-else', token: 'y'.repeat(32) })),
    ).toBeNull();
  });
});

describe('agentReaches (spec §7 reachability, asked of the agent)', () => {
  it('asks the agent with its token and believes only reachable: true', async () => {
    const asked: { url: string; authorization: string | null }[] = [];
    const fetcher = (async (input: string, init: RequestInit) => {
      asked.push({ url: input, authorization: new Headers(init.headers).get('authorization') });
      return new Response(JSON.stringify({ reachable: true }));
    }) as typeof fetch;
    expect(await agentReaches({ token: 't'.repeat(32) }, { host: '10.0.0.5', port: 8443 }, fetcher)).toBe(
      true,
    );
    expect(asked).toEqual([
      { url: `${LOCAL_AGENT_URL}/reach?host=10.0.0.5&port=8443`, authorization: `Bearer ${'t'.repeat(32)}` },
    ]);
    expect(
      await agentReaches({ token: 'x' }, { host: 'h', port: 1 }, answering(200, { reachable: false })),
    ).toBe(false);
    expect(
      await agentReaches({ token: 'x' }, { host: 'h', port: 1 }, answering(401, { reachable: true })),
    ).toBe(false);
  });
});
