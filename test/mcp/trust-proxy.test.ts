// Behind a reverse proxy every request of the HTTP tool server comes from the proxy's address. With
// --trust-proxy naming the proxy, the tool server takes the client from the proxy's X-Forwarded-For
// and names that client to the platform, so the platform's failed-login limit (seed 000 "Errors":
// 429 MCP_AUTH_RATE_LIMITED per IP; the mock counts 20 per 5 minutes) locks out that client alone.
// Only a well-formed address is taken from the header: anything else counts as the proxy itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLmskit } from '../e2e/process.ts';
import {
  createKey,
  initializeRequest,
  type Mock,
  READ_KEY,
  rpcPost,
  startHttpToolServer,
  startMock,
  stopAll,
} from './setup.ts';

afterAll(stopAll);

const wrongKey = (n: number) => `lmcp_${String(n).padStart(43, 'x')}`;
/** A request as the reverse proxy on this machine passes it on, naming its client. */
const viaProxy = (url: string, key: string, forwardedFor: string) =>
  rpcPost(url, initializeRequest(), key, { 'x-forwarded-for': forwardedFor }, '127.0.0.1');

describe('--trust-proxy: one client behind a reverse proxy locks out only itself (the trust proxy rule)', () => {
  let mock: Mock;
  let url = '';
  beforeAll(async () => {
    mock = await startMock();
    url = (await startHttpToolServer(mock.url, ['--trust-proxy', 'loopback'])).url;
  });

  it('client 203.0.113.5 sends 21 wrong keys and is locked out; 203.0.113.6, behind the same proxy, is served', async () => {
    for (let n = 0; n < 20; n++) expect((await viaProxy(url, wrongKey(n), '203.0.113.5')).status).toBe(401);
    const locked = await viaProxy(url, wrongKey(20), '203.0.113.5');
    expect(locked.status).toBe(429);
    expect(locked.json.error.code).toBe(-32011);
    const { key } = await createKey(mock.url, 1, ['read']);
    const other = await viaProxy(url, key, '198.51.100.7, 203.0.113.6');
    expect(other.status, other.text).toBe(200);
  });

  it('the proxy passing on a client-sent chain is read from the right: the client is the last untrusted address', async () => {
    // The client 203.0.113.8 claimed to be 203.0.113.5 (locked out above); the proxy appended the truth.
    const answer = await viaProxy(url, READ_KEY, '203.0.113.5, 203.0.113.8');
    expect(answer.status, answer.text).toBe(200);
  });

  it('junk in X-Forwarded-For is not an address: 20 wrong keys under 20 junk names count as the proxy itself, and lock it out', async () => {
    const junk = (n: number) =>
      [`not-an-ip-${n}`, `10.0.0.${n}:80`, `[::${n}]`, `999.1.1.${n}`][n % 4] as string;
    for (let n = 0; n < 20; n++) {
      const answer = await viaProxy(url, wrongKey(100 + n), junk(n));
      expect(answer.status, answer.text).toBe(401);
    }
    // The proxy's own address (no header at all) is what the junk counted against.
    const proxy = await rpcPost(url, initializeRequest(), wrongKey(200), {}, '127.0.0.1');
    expect(proxy.status).toBe(429);
    // A well-formed client behind it is still served (a new key: the platform is asked).
    const { key } = await createKey(mock.url, 1, ['read']);
    expect((await viaProxy(url, key, '192.0.2.44')).status).toBe(200);
  });
});

describe('without --trust-proxy, or from a peer not trusted, X-Forwarded-For is ignored (the trust proxy rule)', () => {
  it('a client naming 20 different addresses is counted as the address it connects from', async () => {
    const mock = await startMock();
    const { url } = await startHttpToolServer(mock.url, ['--trust-proxy', '127.0.0.1']);
    // 127.0.0.4 is not the trusted proxy: what it claims is not believed.
    for (let n = 0; n < 20; n++) {
      const answer = await rpcPost(
        url,
        initializeRequest(),
        wrongKey(n),
        { 'x-forwarded-for': `198.51.100.${n}` },
        '127.0.0.4',
      );
      expect(answer.status).toBe(401);
    }
    const next = await rpcPost(
      url,
      initializeRequest(),
      READ_KEY,
      { 'x-forwarded-for': '198.51.100.99' },
      '127.0.0.4',
    );
    expect(next.status).toBe(429);
  });

  it('--trust-proxy with something that is no address, subnet, loopback or none: one sentence, exit 2', async () => {
    for (const value of ['', 'proxy.example', '10.0.0.0/99']) {
      const { code, output } = await runLmskit(['mcp', '--http', '--port', '0', '--trust-proxy', value]);
      expect(code, output).toBe(2);
      // An empty value is refused as every empty flag is, before its own rule is read.
      expect(output.split('\n')[0]).toMatch(
        value === ''
          ? /^--trust-proxy takes a value; it is empty$/
          : /^--trust-proxy takes addresses, subnets, loopback or none/,
      );
    }
  });
});
