// Three `lmskit mock --store postgres://…` processes over one real PostgreSQL (test/postgres.ts),
// talked to as clients behind a round-robin balancer would (docs/mock.md, Shared sandbox): each
// request goes to the next replica. They serve one platform: a write answered by one is read by the
// next, racing writes of one rule give one winner, and a reset through one resets them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY } from '../../mock/seed/demo.ts';
import { STORE_PASSWORD, startPostgres, type TestPostgres } from '../postgres.ts';
import { client, freePort, type RunningProcess, startLmskit } from './process.ts';

const TOKEN = 'shared-sandbox-admin-token';
let db: TestPostgres;
const replicas: RunningProcess[] = [];
const bases: string[] = [];

beforeAll(async () => {
  db = await startPostgres();
  const url = await db.database();
  // One after another: the first makes the store from its seed, the others join it.
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    replicas.push(
      await startLmskit(
        ['mock', '--port', String(port), '--store', url, '--admin-token', TOKEN, '--frozen-clock'],
        /try: curl/,
      ),
    );
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

  it('the snapshots of every replica are the same', async () => {
    const snapshots = await Promise.all(bases.map(async (base) => (await admin(base)('/snapshot')).body));
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]).toEqual(snapshots[0]);
  });
});
