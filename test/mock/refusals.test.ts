// Refusals every API shares, in-process and checked against the contracts (docs/mock.md, Bad input
// and Durable state): a write the state file cannot keep is a 503 that changed nothing, a body nested
// too deeply is a 400 that registered nothing, and the admin API's faults are bounded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../conformance/fixtures.ts';
import { type CommandLog, CommandLogError } from '../../mock/domain/platform.ts';
import { MAX_FAULTS } from '../../mock/http/faults.ts';
import { MAX_BODY_DEPTH } from '../../mock/http/refusals.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => h.platform.setCommandLog(null));

/** A command log on a full disk: it keeps nothing, and says so. */
const fullDisk: CommandLog = {
  append: () => {
    throw new CommandLogError(
      'The change was not saved: writing the state file failed (ENOSPC). Nothing was changed; retry after 10s.',
    );
  },
  retract: () => {},
};

const snapshot = () => JSON.stringify(h.platform.snapshot());

describe('a write the state file cannot keep (docs/mock.md, Durable state: 503, nothing changed)', () => {
  it('answers v1 503 {status, message} with Retry-After, and the user does not exist', async () => {
    const before = snapshot();
    h.platform.setCommandLog(fullDisk);
    const user = {
      name: 'Nia',
      email: 'nia@example.test',
      password: 'password1',
      roleAlias: 'learner',
      id: 'nia',
    };
    const refused = await h.v1('/users', { method: 'POST', json: user });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      status: 503,
      message: expect.stringMatching(/not saved.*retry after 10s/),
    });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(snapshot()).toBe(before);
    // The retry, once the disk takes writes again, is not "already taken".
    h.platform.setCommandLog(null);
    expect((await h.v1('/users', { method: 'POST', json: user })).status).toBe(201);
  });

  it('answers v2 and admin 503 {error, code: STATE_NOT_SAVED} with Retry-After', async () => {
    // The key's lastUsedAt is not logged (docs/mock.md): set it first, on the frozen clock.
    await h.v2('/mcp/capabilities');
    const before = snapshot();
    h.platform.setCommandLog(fullDisk);
    const v2 = await h.v2('/users/banned', { method: 'POST', json: { userId: 7 } });
    const admin = await h.admin('/clock/advance', { method: 'POST', json: { seconds: 60 } });
    for (const refused of [v2, admin]) {
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: expect.stringMatching(/not saved/), code: 'STATE_NOT_SAVED' });
      expect(refused.headers.get('retry-after')).toBe('10');
    }
    expect(snapshot()).toBe(before);
  });

  it('does not count an AI call against the quota when the generation job could not be saved (seed 000, Limits)', async () => {
    const usage = () => JSON.stringify(h.platform.tenant('demo').aiUsage);
    const before = usage();
    h.platform.setCommandLog(fullDisk);
    const refused = await h.v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Fire safety basics' },
    });
    expect(refused.status).toBe(503);
    expect(usage()).toBe(before);
  });

  it('answers an upload 503 after its text was extracted, and records no session', async () => {
    const sessions = h.platform.tenant('demo').uploads.size;
    h.platform.setCommandLog(fullDisk);
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(minimalPdf('Keep the exits clear'))]), 'exits.pdf');
    const refused = await h.v2('/chat/source-materials/upload', { method: 'POST', body });
    expect(refused).toMatchObject({ status: 503, body: { code: 'STATE_NOT_SAVED' } });
    expect(h.platform.tenant('demo').uploads.size).toBe(sessions);
  });
});

describe(`a JSON body nested deeper than ${MAX_BODY_DEPTH} levels (docs/mock.md, Bad input)`, () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const send = (url: string, body: string, headers: Record<string, string>) =>
    fetch(`${h.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('is a 400 in the v1 shape', async () => {
    const answer = await send('/openapi/v1/users', nested(100_000), {
      'x-api-key': 'demo_site_key_4f1c9a7e2b6d8053',
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      status: 400,
      message: `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
    });
  });

  it('is a 400 in the {error, code} shape on the admin API, and registers no fault', async () => {
    const body = `{"method":"GET","path":"/openapi/v1/courses","status":503,"body":${nested(100_000)}}`;
    const answer = await send('/__admin/faults', body, { authorization: 'Bearer test-admin-token' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: expect.stringMatching(/nested deeper/),
      code: 'VALIDATION_ERROR',
    });
    expect((await h.admin('/faults')).body).toEqual({ faults: [] });
    expect((await h.v1('/courses')).status).toBe(200);
  });

  it('counts only brackets outside strings: a body nested less deep, with brackets in its text, is taken', async () => {
    const body = `{"method":"GET","path":"/openapi/v1/courses","status":503,"body":{"error":"${'['.repeat(1000)}","deep":${nested(MAX_BODY_DEPTH - 2)}}}`;
    const answer = await send('/__admin/faults', body, { authorization: 'Bearer test-admin-token' });
    expect(answer.status).toBe(201);
    expect((await h.admin('/faults', { method: 'DELETE' })).status).toBe(200);
  });
});

describe(`at most ${MAX_FAULTS} faults in force (openapi/admin, createFault)`, () => {
  it('refuses one more with 409 TOO_MANY_FAULTS, and takes new ones once cleared', async () => {
    const fault = { method: 'GET', path: '/nowhere', status: 503 };
    for (let i = 0; i < MAX_FAULTS; i++)
      expect((await h.admin('/faults', { method: 'POST', json: fault })).status).toBe(201);
    const refused = await h.admin('/faults', { method: 'POST', json: fault });
    expect(refused).toMatchObject({ status: 409, body: { code: 'TOO_MANY_FAULTS' } });
    await h.admin('/faults', { method: 'DELETE' });
    expect((await h.admin('/faults', { method: 'POST', json: fault })).status).toBe(201);
    await h.admin('/faults', { method: 'DELETE' });
  });
});
