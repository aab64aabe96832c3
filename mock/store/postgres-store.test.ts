// The shared store against a real PostgreSQL (test/postgres.ts): replicas in one process, each a
// platform of its own over one database, as separate `lmskit mock --store` processes would be
// (docs/mock.md, Shared sandbox; docs/adr-0007-shared-sandbox.md).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_PASSWORD, startPostgres, type TestPostgres } from '../../test/postgres.ts';
import { VirtualClock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import { CommandLogError, Platform } from '../domain/platform.ts';
import { loadSeed } from '../seed/index.ts';
import { PostgresStore, SNAPSHOT_EVERY, StoreFromNewerVersion } from './postgres-store.ts';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => db?.close());

const stores: PostgresStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

/** A replica: a platform started from `seed`, joined to the store at `url`. */
async function replica(url: string, seed = 'demo', frozen = true) {
  const state = loadSeed(seed);
  const platform = new Platform(new VirtualClock({ start: state.now, frozen }), loadSeed);
  platform.load(state);
  const { store, report } = await PostgresStore.open(url, platform);
  stores.push(store);
  return { platform, store, report };
}

const user = (email: string) => ({
  tenantId: 'demo',
  input: { name: 'Nora', email, password: 'Zebra-Sunrise-42', roleAlias: 'learner' },
});

/** What a client of a replica sees: the platform after it took in every committed command. */
async function read<T>(r: { platform: Platform }, look: (p: Platform) => T): Promise<T> {
  await r.platform.caughtUp();
  return look(r.platform);
}

describe('shared store: replicas serve one platform', () => {
  it('the first replica starts the store from its seed; the next joins that state, whatever its own seed', async () => {
    const url = await db.database();
    const first = await replica(url, 'demo');
    const second = await replica(url, 'empty');
    expect(first.report.started).toBe('new');
    expect(second.report.started).toBe('joined');
    expect(second.platform.snapshot()).toEqual(first.platform.snapshot());
  });

  it('a write answered by one replica is read by another (linearizable reads)', async () => {
    const url = await db.database();
    const a = await replica(url);
    const b = await replica(url);
    for (let i = 0; i < 50; i++) {
      const made = await a.platform.exclusive(() =>
        a.platform.run('createUser', user(`nora${i}@demo.example`)),
      );
      expect(await read(b, (p) => p.tenant('demo').users.get(made.id)?.email)).toBe(`nora${i}@demo.example`);
    }
  });

  it('two replicas racing on one rule (one e-mail): exactly one wins, the other gets the domain’s refusal', async () => {
    const url = await db.database();
    const replicas = [await replica(url), await replica(url), await replica(url)];
    for (let round = 0; round < 10; round++) {
      const email = `race${round}@demo.example`;
      const outcomes = await Promise.allSettled(
        replicas.map((r) => r.platform.exclusive(() => r.platform.run('createUser', user(email)))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected'))
        expect((o as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    }
    const snapshots = await Promise.all(replicas.map((r) => read(r, (p) => p.snapshot())));
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]).toEqual(snapshots[0]);
  });

  it('replicas racing on the last AI call of a key’s day: exactly one gets it, the others 429 MCP_RATE_LIMITED (seed 000, Limits: 5 calls per key per day)', async () => {
    const url = await db.database();
    const replicas = [await replica(url), await replica(url), await replica(url)];
    const call = (r: (typeof replicas)[number]) =>
      r.platform.exclusive(() =>
        r.platform.run('regenerateLesson', {
          tenantId: 'demo',
          actorId: 1,
          lessonId: 1,
          quotaKeyId: 'key_race',
        }),
      );
    for (let i = 0; i < 4; i++) await call(replicas[i % 3] as (typeof replicas)[number]);
    const outcomes = await Promise.allSettled(replicas.map(call));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'MCP_RATE_LIMITED' });
  });

  it('a generation job made through one replica settles once, through the log, and every replica sees its course (seed 000, Generation job)', async () => {
    const url = await db.database();
    const a = await replica(url);
    const b = await replica(url);
    const job = await a.platform.exclusive(() =>
      a.platform.run('createJob', {
        tenantId: 'demo',
        actorId: 1,
        input: { prompt: 'A course about ladders' },
      }),
    );
    await a.platform.exclusive(() => a.platform.run('advanceClock', { seconds: 3_600 }));
    // Both replicas find the job due; one settles it, the other then finds nothing left to settle.
    await read(b, (p) => p.settleDueJobs());
    a.platform.settleDueJobs();
    const settled = (r: { platform: Platform }) => read(r, (p) => p.tenant('demo').jobs.get(job.id)?.status);
    await expect.poll(() => settled(a)).toBe('completed');
    await expect.poll(() => settled(b)).toBe('completed');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT count(*) AS n FROM lmskit_commands WHERE entry LIKE \'{"t":"settleJobs"%\'',
    );
    await client.end();
    expect(rows[0].n).toBe('1');
  });

  it('the virtual clock is one: moved through one replica, the others tell the same time', async () => {
    const url = await db.database();
    const a = await replica(url, 'demo', false);
    const b = await replica(url, 'demo', false);
    const moved = await a.platform.exclusive(() => a.platform.run('advanceClock', { seconds: 86_400 }));
    expect(await read(b, (p) => p.clock.state())).toEqual(a.platform.clock.state());
    expect(Math.abs((await read(b, (p) => p.now())) - moved)).toBeLessThanOrEqual(1);
  });

  it('refuses a command outside a write: nothing can change a replica without the log ordering it', async () => {
    const url = await db.database();
    const a = await replica(url);
    expect(() => a.platform.run('createUser', user('outside@demo.example'))).toThrow(CommandLogError);
    expect(await read(a, (p) => p.tenant('demo').userByEmail('outside@demo.example'))).toBeUndefined();
  });

  it(`a replica joining after ${SNAPSHOT_EVERY} commands starts from a snapshot, not from the whole history`, async () => {
    const url = await db.database();
    const a = await replica(url);
    for (let i = 0; i < SNAPSHOT_EVERY + 10; i++)
      await a.platform.exclusive(() => a.platform.run('createUser', user(`many${i}@demo.example`)));
    // The snapshot is written in the background after the commit that passed the mark.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await expect
      .poll(async () => (await client.query('SELECT max(seq) AS seq FROM lmskit_snapshots')).rows[0].seq)
      .toBe(String(SNAPSHOT_EVERY));
    await client.end();
    const late = await replica(url, 'empty');
    expect(late.report.replayed).toBe(10);
    expect(late.platform.snapshot()).toEqual(a.platform.snapshot());
  });
});

describe('shared store: what it refuses', () => {
  it('a store whose schema a newer lmskit made is refused with a sentence and left as it is', async () => {
    const url = await db.database();
    await replica(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE lmskit_meta SET value = '2' WHERE key = 'schema_version'");
    const error = await replica(url).catch((e: Error) => e);
    expect(error).toBeInstanceOf(StoreFromNewerVersion);
    expect((error as Error).message).toMatch(/version 2: a newer lmskit made it/);
    expect(
      (await client.query("SELECT value FROM lmskit_meta WHERE key = 'schema_version'")).rows[0].value,
    ).toBe('2');
    await client.end();
  });

  it('upgrading replicas one by one: an older replica that meets a newer lmskit’s command says to upgrade it (503), and will not start', async () => {
    const url = await db.database();
    const older = await replica(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `INSERT INTO lmskit_commands (seq, entry) VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM lmskit_commands), $1)`,
      [JSON.stringify({ t: 'commandOfANewerLmskit', a: {}, at: 0 })],
    );
    await client.end();
    const error = await older.platform.caughtUp()?.catch((e: Error) => e);
    expect(error).toBeInstanceOf(CommandLogError);
    expect((error as Error).message).toMatch(/commandOfANewerLmskit.*Upgrade this replica/);
    await expect(replica(url)).rejects.toThrow(
      /commandOfANewerLmskit, which this version of lmskit does not know/,
    );
  });

  it('a store out of reach is a CommandLogError naming it without its password', async () => {
    const url = (await db.database()).replace(/:\d+\//, ':1/');
    const error = await replica(url).catch((e: Error) => e);
    expect(error).toBeInstanceOf(CommandLogError);
    expect((error as Error).message).toContain('cannot be reached');
    expect((error as Error).message).not.toContain(STORE_PASSWORD);
  });
});

describe('startMock({ store }) (docs/guide.md, Use it from your tests)', () => {
  it('two mocks of one store in a test: a user made through one is read through the other', async () => {
    const { startMock } = await import('../../package/index.ts');
    const store = await db.database();
    const first = await startMock({ store });
    const second = await startMock({ store, seed: 'empty' });
    try {
      const made = await fetch(`${first.url}/openapi/v1/users`, {
        method: 'POST',
        headers: { 'x-api-key': first.siteApiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Nora',
          email: 'nora@demo.example',
          password: 'Zebra-Sunrise-42',
          roleAlias: 'learner',
        }),
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: string };
      const read = await fetch(`${second.url}/openapi/v1/users/${id}/assignments`, {
        headers: { 'x-api-key': first.siteApiKey },
      });
      expect(read.status).toBe(200);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
