// Three `lmskit mock --store postgres://…` processes over one real PostgreSQL (test/postgres.ts),
// talked to as clients behind a round-robin balancer would (docs/mock.md, Shared sandbox): each
// request goes to the next replica. They serve one platform: a write answered by one is read by the
// next, racing writes of one rule give one winner, a reset through one resets them all, and the request
// journal of any lists the requests every replica answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import { STORE_PASSWORD, startPostgres, type TestPostgres } from '../postgres.ts';
import type { RunningProcess as Replica } from './process.ts';
import { client, freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const TOKEN = 'shared-sandbox-admin-token';
let db: TestPostgres;
let store: string;
const replicas: RunningProcess[] = [];
const bases: string[] = [];

const startReplica = (port: number): Promise<Replica> =>
  startLmskit(
    ['mock', '--port', String(port), '--store', store, '--admin-token', TOKEN, '--frozen-clock'],
    /try: curl/,
  );

beforeAll(async () => {
  db = await startPostgres();
  store = await db.database();
  // One after another: the first makes the store from its seed, the others join it.
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    replicas.push(await startReplica(port));
    bases.push(`http://127.0.0.1:${port}`);
  }
});

afterAll(async () => {
  for (const p of replicas) p.child.kill('SIGKILL');
  await Promise.all(replicas.map((p) => p.exited));
  await db?.close();
});

let turn = 0;
/** The next replica, as a round-robin balancer picks it. */
const next = () => bases[turn++ % bases.length] as string;
const v1 = (base: string) => client(`${base}/openapi/v1`, { 'x-api-key': DEMO_SITE_API_KEY });
const admin = (base: string) => client(`${base}/__admin`, { authorization: `Bearer ${TOKEN}` });
const mcp = (base: string) => client(`${base}/api/v2`, { 'x-mcp-key': demoMcpKey('read') });

describe('a shared sandbox: three replicas, one platform (docs/mock.md, Shared sandbox)', () => {
  it('each replica says it shares the store, without the store’s password', () => {
    for (const p of replicas) {
      expect(p.output()).toMatch(
        /state: shared with every replica of postgres:\/\/postgres:•••@127\.0\.0\.1:\d+\//,
      );
      expect(p.output()).not.toContain(STORE_PASSWORD);
    }
    expect(replicas[1]?.output()).toMatch(/joined, \d+ command\(s\) replayed/);
  });

  it('a group made through one replica is read through the next, 150 times in a row (no stale read)', async () => {
    let stale = 0;
    for (let i = 0; i < 150; i++) {
      const made = await v1(next())('/groups', { method: 'POST', json: { name: `Rotation ${i}` } });
      expect(made.status).toBe(201);
      const read = await v1(next())(`/groups/${made.body.id}/statistics`);
      if (read.status !== 200 || read.body.group.name !== `Rotation ${i}`) stale++;
    }
    expect(stale).toBe(0);
  });

  it('three replicas creating a user with one e-mail at once: exactly one wins, the others get the e-mail refusal', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `race-${round}@demo.example`;
      const answers = await Promise.all(
        bases.map((base, i) =>
          v1(base)('/users', {
            method: 'POST',
            json: { name: `Racer ${i}`, email, password: 'Zebra-Sunrise-42', roleAlias: 'learner' },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400]);
      for (const refused of answers.filter((a) => a.status === 400))
        expect(JSON.stringify(refused.body.errors)).toMatch(/already/i);
    }
  });

  it('a reset through one replica resets the sandbox: the others no longer know what it held', async () => {
    const made = await v1(next())('/groups', { method: 'POST', json: { name: 'Before the reset' } });
    expect((await admin(next())('/reset', { method: 'POST', json: {} })).status).toBe(200);
    for (const base of bases) expect((await v1(base)(`/groups/${made.body.id}/statistics`)).status).toBe(404);
  });

  it('one request journal: a request answered by one replica is in the next one’s journal as soon as it is answered, and a clear through one is seen by all', async () => {
    for (let i = 0; i < 30; i++) {
      const answered = await v1(next())(`/courses/${(i % 5) + 1}?probe=${i}`);
      expect(answered.status).toBe(200);
      const listed = await admin(next())('/journal?limit=1');
      expect(listed.body.requests[0]?.url).toBe(`/openapi/v1/courses/${(i % 5) + 1}?probe=${i}`);
    }
    const everyProbe = await admin(next())('/journal?path=/openapi/v1/courses/&limit=30');
    const probes = everyProbe.body.requests.map((e: { url: string }) => new URL(e.url, 'http://x').search);
    expect(probes).toEqual(Array.from({ length: 30 }, (_, i) => `?probe=${29 - i}`));
    expect(new Set(everyProbe.body.requests.map((e: { id: string }) => e.id)).size).toBe(30);

    const cleared = await admin(next())('/journal', { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.cleared).toBeGreaterThanOrEqual(30);
    for (const base of bases)
      expect((await admin(base)('/journal')).body).toMatchObject({ requests: [], held: 0 });
  });

  it('a fault with count 1 added through one replica answers once in the whole sandbox (docs/mock.md, Faults)', async () => {
    const added = await admin(next())('/faults', {
      method: 'POST',
      json: { method: 'GET', path: '/openapi/v1/courses', status: 503, count: 1 },
    });
    expect(added.status).toBe(201);
    const statuses = await Promise.all(bases.map((base) => v1(base)('/courses').then((a) => a.status)));
    expect(statuses.filter((s) => s === 503)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    for (const base of bases) expect((await admin(base)('/faults')).body.faults).toEqual([]);
  });

  it('the snapshots of every replica are the same', async () => {
    const snapshots = await Promise.all(bases.map(async (base) => (await admin(base)('/snapshot')).body));
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]).toEqual(snapshots[0]);
  });
});

/** Groups made one after another by `workers` clients taking the replicas in turn, until `stop()`; the answered ones. */
function writeLoad(workers: number) {
  const acknowledged: { id: number; name: string }[] = [];
  let running = true;
  let made = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const name = `Load ${made++}`;
      const answer = await v1(next())('/groups', { method: 'POST', json: { name } }).catch(() => null);
      if (answer?.status === 201) acknowledged.push({ id: answer.body.id, name });
    }
  });
  return {
    acknowledged,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('lmskit mock --store refuses what cannot work, in one sentence and exit code 2 (docs/mock.md, Shared sandbox)', () => {
  it.each([
    [['--store', 'mysql://me:hunter2secret@127.0.0.1/db'], /--store takes a PostgreSQL URL/],
    [
      ['--store', 'postgres://me:hunter2secret@127.0.0.1/db', '--state-file', 'state.jsonl'],
      /--store and --state-file both keep the state/,
    ],
  ])('%j', async (flags, sentence) => {
    const { code, output } = await runLmskit(['mock', '--port', '0', ...flags], {}, { killAfterMs: 30_000 });
    expect(code).toBe(2);
    expect(output).toMatch(sentence);
    expect(output).not.toContain('hunter2secret');
  });

  it('a store out of reach stops the start with a sentence naming it without its password', async () => {
    const { code, output } = await runLmskit(
      ['mock', '--port', '0', '--store', 'postgres://me:hunter2secret@127.0.0.1:1/db'],
      {},
      { killAfterMs: 60_000 },
    );
    expect(code).toBe(1);
    expect(output).toMatch(/The shared store postgres:\/\/me:•••@127\.0\.0\.1:1\/db cannot be reached/);
    expect(output).not.toContain('hunter2secret');
  });
});

describe('a shared sandbox when a replica or PostgreSQL fails (docs/mock.md, Shared sandbox)', () => {
  it('kill -9 of a replica under a write load loses no answered write; restarted, it catches up with the others', async () => {
    const load = writeLoad(4);
    await expect.poll(() => load.acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(30);
    const victim = replicas[0] as RunningProcess;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const before = load.acknowledged.length;
    await expect.poll(() => load.acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(before + 30);
    await load.stop();

    replicas[0] = await startReplica(Number(new URL(bases[0] as string).port));
    for (const group of load.acknowledged) {
      const read = await v1(bases[0] as string)(`/groups/${group.id}/statistics`);
      expect([read.status, read.body.group?.name]).toEqual([200, group.name]);
    }
    const snapshots = await Promise.all(bases.map(async (base) => (await admin(base)('/snapshot')).body));
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]).toEqual(snapshots[0]);
  });

  it('PostgreSQL stopped: every replica answers 503 with Retry-After and stays up; started again, they serve by themselves and nothing was lost', async () => {
    const kept = await v1(next())('/groups', { method: 'POST', json: { name: 'Kept across the outage' } });
    expect(kept.status).toBe(201);
    await db.stop();
    try {
      for (const base of bases) {
        const read = await v1(base)('/courses');
        expect(read.status).toBe(503);
        expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(JSON.stringify(read.body)).not.toContain(STORE_PASSWORD);
        // Each API's documented 503 (its ServiceUnavailable response: a read may meet it too).
        expect(read.body).toEqual({ status: 503, message: expect.stringContaining('cannot be reached') });
        for (const other of [await admin(base)('/faults'), await mcp(base)('/courses')]) {
          expect(other.status).toBe(503);
          expect(other.body).toEqual({
            error: expect.stringContaining('cannot be reached'),
            code: 'STATE_NOT_SAVED',
          });
        }
        const write = await v1(base)('/groups', { method: 'POST', json: { name: 'During the outage' } });
        expect(write.status).toBe(503);
      }
    } finally {
      await db.start();
    }
    for (const base of bases)
      await expect.poll(async () => (await v1(base)('/courses')).status, { timeout: 60_000 }).toBe(200);
    for (const base of bases) {
      const read = await v1(base)(`/groups/${kept.body.id}/statistics`);
      expect(read.body.group.name).toBe('Kept across the outage');
    }
    expect((await v1(next())('/groups', { method: 'POST', json: { name: 'After the outage' } })).status).toBe(
      201,
    );
    // The journal is written again: an answer waits for its row once an insert succeeded again.
    await expect
      .poll(
        async () => {
          const probe = `/openapi/v1/courses/1?after-outage=${Math.random()}`;
          await v1(next())(probe.slice('/openapi/v1'.length));
          return (await admin(next())('/journal?limit=1')).body.requests[0]?.url === probe;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    for (const p of replicas) {
      expect(p.child.exitCode).toBeNull();
      expect(p.output()).not.toContain(STORE_PASSWORD);
    }
  });
});
