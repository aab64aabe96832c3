// The request journal of a shared sandbox against a real PostgreSQL (test/postgres.ts): replicas in
// one process, each a platform and a server of its own over one database, as separate `lmskit mock
// --store` processes would be (docs/mock.md, Shared sandbox). One journal for all: a request answered
// by one is listed by the other once answered, within the journal's size, with the ring's filters
// and shapes, cleared for all, its secrets masked in the store too.
import express from 'express';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MCP_TOOL_HEADER, MCP_USER_AGENT } from '../../lib/mcp-headers.ts';
import { STORE_PASSWORD, startPostgres, type TestPostgres } from '../../test/postgres.ts';
import { VirtualClock } from '../domain/clock.ts';
import { CommandLogError, Platform } from '../domain/platform.ts';
import { RequestJournal } from '../http/journal.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../seed/demo.ts';
import { loadSeed } from '../seed/index.ts';
import { type RunningMock, startServer } from '../server.ts';
import { loadSpecs } from '../specs.ts';
import { HOLD_LIMIT_MS, PostgresJournal } from './postgres-journal.ts';
import { PostgresStore } from './postgres-store.ts';
import { maskedStoreUrl } from './store-url.ts';

const TOKEN = 'journal-test-token';
const READ_KEY = demoMcpKey('read');

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await db?.close();
});

/** A mock over the demo seed: a replica of the store at `url`, or with its journal in memory. */
async function mock(url: string | null, journalSize?: number) {
  const state = loadSeed('demo');
  const platform = new Platform(new VirtualClock({ start: state.now, frozen: true }), loadSeed);
  platform.load(state);
  const store = url === null ? undefined : (await PostgresStore.open(url, platform)).store;
  const running: RunningMock = await startServer({
    platform,
    adminToken: TOKEN,
    validateResponses: true,
    version: 'test',
    limits: { requestsPerMinute: 0 },
    journalSize,
    journalStore: store?.journal.bind(store),
    webhooks: false,
  });
  closing.push(async () => {
    await running.close();
    await store?.close();
  });
  const call =
    (prefix: string, auth: Record<string, string>) =>
    async (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const { json, ...rest } = init;
      const response = await fetch(`${running.url}${prefix}${path}`, {
        ...rest,
        headers: {
          ...auth,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(rest.headers as Record<string, string>),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
  const admin = call('/__admin', { authorization: `Bearer ${TOKEN}` });
  return {
    base: running.url,
    v1: call('/openapi/v1', { 'x-api-key': DEMO_SITE_API_KEY }),
    v2: call('/api/v2', { 'x-mcp-key': READ_KEY }),
    admin,
    journal: async (query = '') => {
      const { status, body } = await admin(`/journal${query}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return body as { requests: any[]; size: number; held: number };
    },
  };
}

/** A query of the store at `url`. */
async function sql(url: string, text: string): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('one request journal for the whole shared sandbox (docs/mock.md, Shared sandbox)', () => {
  it('a request answered by one replica is in the other’s journal, in full and as HAR, as soon as its answer is in', async () => {
    const url = await db.database();
    const a = await mock(url);
    const b = await mock(url);
    for (let i = 1; i <= 40; i++) {
      const from = i % 2 ? a : b;
      const to = i % 2 ? b : a;
      expect((await from.v1(`/courses/${i}?round=${i}`)).status).toBeLessThan(500);
      const [entry] = (await to.journal('?limit=1')).requests;
      expect(entry?.url).toBe(`/openapi/v1/courses/${i}?round=${i}`);
    }
    const [newest] = (await a.journal('?limit=1')).requests;
    const detail = await b.admin(`/journal/${newest.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.entry).toEqual(newest);
    expect(detail.body.request.headers['x-api-key']).toBe(`••••${DEMO_SITE_API_KEY.slice(-4)}`);
    const har = await b.admin('/journal/har?limit=2');
    expect(
      har.body.log.entries.map((e: { request: { url: string } }) => new URL(e.request.url).search),
    ).toEqual(['?round=39', '?round=40']);
  });

  it('holds the last journalSize requests of every replica, and its table never more rows', async () => {
    const url = await db.database();
    const a = await mock(url, 5);
    const b = await mock(url, 5);
    for (let i = 1; i <= 17; i++) await (i % 2 ? a : b).v1(`/courses/${i}`);
    for (const replica of [a, b]) {
      const listed = await replica.journal();
      expect(listed).toMatchObject({ size: 5, held: 5 });
      expect(listed.requests.map((e) => e.path)).toEqual(
        [17, 16, 15, 14, 13].map((n) => `/openapi/v1/courses/${n}`),
      );
    }
    expect(await sql(url, 'SELECT count(*)::int AS n FROM lmskit_journal')).toEqual([{ n: 5 }]);
    // Many at once: rows of one statement that fall in one slot (more rows than slots) keep the newest.
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).v1(`/courses/${(i % 9) + 1}`)));
    const after = await b.journal();
    expect(after.held).toBe(5);
    const seqs = after.requests.map((e) => Number(e.id.slice('req_'.length)));
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));
    const [{ newest }] = await sql(url, 'SELECT max(seq)::int AS newest FROM lmskit_journal');
    expect(seqs[0]).toBe(newest);
    expect(await sql(url, 'SELECT count(*)::int AS n FROM lmskit_journal')).toEqual([{ n: 5 }]);
  });

  it('gives ids unique across replicas answering at once, newest first', async () => {
    const url = await db.database();
    const a = await mock(url);
    const b = await mock(url);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).v1(`/courses/${(i % 9) + 1}?n=${i}`)),
    );
    const { requests, held } = await a.journal();
    expect(held).toBe(60);
    const seqs = requests.map((e) => Number(e.id.slice('req_'.length)));
    expect(new Set(seqs).size).toBe(60);
    expect([...seqs].sort((x, y) => y - x)).toEqual(seqs);
    expect(new Set(requests.map((e) => new URL(e.url, 'http://x').searchParams.get('n'))).size).toBe(60);
  });

  it('is cleared through one replica for all; ids go on counting', async () => {
    const url = await db.database();
    const a = await mock(url);
    const b = await mock(url);
    await a.v1('/courses/1');
    await b.v1('/courses/2');
    const [before] = (await b.journal('?limit=1')).requests;
    expect(await a.admin('/journal', { method: 'DELETE' })).toEqual({
      status: 200,
      body: { cleared: 2, size: 1000 },
    });
    expect(await b.journal()).toMatchObject({ requests: [], held: 0 });
    expect((await b.admin(`/journal/${before.id}`)).status).toBe(404);
    await b.v1('/courses/3');
    const [after] = (await a.journal()).requests;
    expect(Number(after.id.slice(4))).toBeGreaterThan(Number(before.id.slice(4)));
    // A reset that clears the journal clears it for every replica too.
    expect((await b.admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
    expect(await a.journal()).toMatchObject({ requests: [], held: 0 });
  });

  it('keeps requests in the store as shown: no key or password of a client is in PostgreSQL', async () => {
    const url = await db.database();
    const a = await mock(url);
    const made = await a.v1('/users', {
      method: 'POST',
      json: { name: 'Ines', email: 'ines@example.com', password: 'Zebra-Sunrise-42', roleAlias: 'learner' },
    });
    expect(made.status).toBe(201);
    await a.v2('/users?query=lena');
    const stored = JSON.stringify(await sql(url, 'SELECT entry FROM lmskit_journal'));
    expect(stored).toContain('ines@example.com');
    for (const secret of ['Zebra-Sunrise-42', DEMO_SITE_API_KEY, READ_KEY, TOKEN])
      expect(stored).not.toContain(secret);
  });
});

describe('the shared journal answers as the ring does (filters, shapes, HAR)', () => {
  /** The same requests to a mock with its journal in memory and to a replica of a store. */
  async function traffic(m: Awaited<ReturnType<typeof mock>>) {
    await m.v1('/courses?limit=3');
    await m.v1('/courses/9999');
    await m.v1('/users', { method: 'POST', json: { email: 'not-an-address' } });
    await m.v1('/users', {
      method: 'POST',
      json: { name: 'Body Match', email: 'body@example.com', password: 'secret123', roleAlias: 'learner' },
    });
    await m.v1('/users', { method: 'POST', json: { firstName: 'x'.repeat(40_000) } });
    await m.v2('/users?query=lena');
    await m.v2('/users/banned', {
      method: 'POST',
      json: { userId: 13 },
      headers: { 'user-agent': MCP_USER_AGENT, [MCP_TOOL_HEADER]: 'ban_user' },
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('RIFF\x04\x00\x00\x00WEBPVP8 '))]), 'a.webp');
    await m.v2('/chat/source-materials/upload', { method: 'POST', body: form });
    await m.admin('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses/6', status: 503 },
    });
    await m.v1('/courses/6');
    await m.v1('/courses/6');
    await m.admin('/clock');
  }

  /** What differs between two mocks answering the same requests: ids, times, ports, multipart boundaries. */
  const comparable = (value: unknown, base: string): unknown =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(base, 'BASE')
        .replaceAll(new URL(base).host, 'HOST')
        .replace(/boundary=[-\w]+/g, 'boundary=…'),
      (key, v) =>
        ['id', 'at', 'latencyMs', 'startedDateTime', 'time', 'wait', 'comment'].includes(key) ? '…' : v,
    );

  it('every filter, full entries, one request and HAR', async () => {
    const memory = await mock(null);
    const shared = await mock(await db.database());
    await traffic(memory);
    await traffic(shared);
    const q = (body: unknown) => `body=${encodeURIComponent(JSON.stringify(body))}`;
    const queries = [
      '',
      '?full=true',
      '?api=v1',
      '?api=mcp&full=true',
      '?api=admin',
      '?method=POST&full=true',
      '?status=404',
      '?minStatus=400&maxStatus=499',
      '?path=/courses',
      '?operationId=createUser&full=true',
      '?caller=demo',
      '?caller=nobody',
      '?tool=ban_user',
      `?${q({ email: 'body@example.com' })}`,
      `?${q({ email: 'body@example.com', password: '••••' })}`,
      `?${q({})}&method=GET`,
      '?limit=2',
    ];
    const none = new Set(['?caller=nobody', `?${q({})}&method=GET`]);
    for (const query of queries) {
      const [one, other] = [await memory.journal(query), await shared.journal(query)];
      expect(one.requests.length > 0, query).toBe(!none.has(query));
      expect(comparable(other, shared.base), query).toEqual(comparable(one, memory.base));
    }
    const details = await Promise.all(
      [memory, shared].map(async (m) => {
        const listed = (await m.journal('?operationId=createUser')).requests;
        return comparable(
          await Promise.all(listed.map(async (e) => (await m.admin(`/journal/${e.id}`)).body)),
          m.base,
        );
      }),
    );
    expect(details[1]).toEqual(details[0]);
    const hars = await Promise.all(
      [memory, shared].map(async (m) => comparable((await m.admin('/journal/har?api=v1')).body, m.base)),
    );
    expect(hars[1]).toEqual(hars[0]);
  });
});

describe('a shared journal when the store cannot be reached', () => {
  it('answers the request anyway, and the next ones without waiting; a read is a 503 naming the store without its password', async () => {
    const unreachable = (await db.database()).replace(/:\d+\//, ':1/');
    const pool = new pg.Pool({ connectionString: unreachable, connectionTimeoutMillis: 2_000 });
    pool.on('error', () => {});
    closing.push(() => pool.end());
    const store = new PostgresJournal(pool, 10, maskedStoreUrl(unreachable));
    const journal = new RequestJournal({
      specs: loadSpecs(),
      now: () => 0,
      version: 'test',
      store: () => store,
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = express();
    app.use(journal.record);
    app.get('/ping', (_req, res) => {
      res.json({ pong: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closing.push(() => new Promise((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const first = await fetch(`${base}/ping`);
      expect([first.status, await first.json()]).toEqual([200, { pong: true }]);
      const started = performance.now();
      for (let i = 0; i < 5; i++) expect((await fetch(`${base}/ping`)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(HOLD_LIMIT_MS);
      const read = await Promise.resolve(journal.list({}, 10)).catch((e: Error) => e);
      expect(read).toBeInstanceOf(CommandLogError);
      expect((read as Error).message).toMatch(
        /The shared store postgres:\/\/postgres:•••@127\.0\.0\.1:1\/\S+ cannot be reached/,
      );
      expect(warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify([warn.mock.calls, (read as Error).message])).not.toContain(STORE_PASSWORD);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('startMock({ store }) (docs/guide.md, Verify what the mock received)', () => {
  it('mock.requests() of one mock lists what another mock of the store answered', async () => {
    const { startMock } = await import('../../package/index.ts');
    const store = await db.database();
    const first = await startMock({ store });
    const second = await startMock({ store, seed: 'empty' });
    closing.push(first.stop, second.stop);
    const answer = await fetch(`${first.url}/openapi/v1/courses/2`, {
      headers: { 'x-api-key': first.siteApiKey },
    });
    expect(answer.status).toBe(200);
    expect((await second.requests({ path: '/openapi/v1/courses/2' })).map((r) => r.status)).toEqual([200]);
    await second.clearRequests();
    expect(await first.requests()).toEqual([]);
  });
});
