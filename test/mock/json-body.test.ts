// The JSON body of a write (docs/mock.md, Bad input): the common body (plain `application/json`,
// uncompressed, with its length) is read by the mock's own reader, anything else by express.json;
// both take the same bodies and refuse the same ones, in the API's error shape, changing nothing.
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../mock/http/json-body.ts';
import { DEMO_SITE_API_KEY, type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let n = 0;
const newUser = () => ({
  name: 'Body Reader',
  email: `body${++n}@example.test`,
  password: 'password1',
  roleAlias: 'learner',
});
const usersNow = () => h.platform.tenant('demo').users.size;

/** POST /openapi/v1/users with these exact bytes and headers. */
const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
  h.v1('/users', {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('bodies the mock takes (docs/mock.md, Bad input)', () => {
  it('a plain JSON body, with or without charset=utf-8, creates the user', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset="UTF-8"',
    ]) {
      const user = newUser();
      const created = await post(JSON.stringify(user), { 'content-type': type });
      expect(created.status, type).toBe(201);
      expect(created.body.email).toBe(user.email);
    }
  });

  it('a body with a UTF-8 byte-order mark, and one with JSON whitespace before it', async () => {
    const user = newUser();
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(user))]);
    expect((await post(bom)).status).toBe(201);
    expect((await post(` \r\n\t${JSON.stringify(newUser())}`)).status).toBe(201);
  });

  it('a gzip-compressed body (read by express.json)', async () => {
    const user = newUser();
    const created = await post(gzipSync(JSON.stringify(user)), { 'content-encoding': 'gzip' });
    expect(created.status).toBe(201);
    expect(created.body.email).toBe(user.email);
  });

  it('a body that arrives in pieces', async () => {
    const user = newUser();
    const text = JSON.stringify(user);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.base}/openapi/v1/users`, {
        method: 'POST',
        headers: {
          'x-api-key': DEMO_SITE_API_KEY,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(text.slice(0, 10));
      setTimeout(() => req.end(text.slice(10)), 50);
    });
    expect(status).toBe(201);
    expect(h.platform.tenant('demo').userByEmail(user.email)).toBeDefined();
  });

  it('the journal shows the body as the client sent it, its password masked (docs/mock.md, Secrets in the journal)', async () => {
    const user = newUser();
    await post(JSON.stringify(user));
    const [entry] = (await h.admin('/journal?limit=1&method=POST')).body.requests;
    const detail = await h.admin(`/journal/${entry.id}`);
    expect(detail.body.request.body).toEqual({ ...user, password: '••••' });
  });
});

describe('bodies the mock refuses: 400 in the v1 shape, nothing created (docs/mock.md, Bad input)', () => {
  const refusals: [string, Buffer | string, Record<string, string>, RegExp][] = [
    ['malformed JSON', '{"name": "x",', {}, /Malformed JSON body/],
    ['a JSON string, not an object', '"just text"', {}, /Malformed JSON body/],
    ['a number after whitespace', '  42', {}, /Malformed JSON body/],
    [
      'a charset other than UTF-8',
      '{}',
      { 'content-type': 'application/json; charset=latin1' },
      /Bad request/,
    ],
    ['a gzip body that is not gzip', 'not gzip at all', { 'content-encoding': 'gzip' }, /Bad request/],
  ];
  for (const [what, body, headers, message] of refusals)
    it(what, async () => {
      const before = usersNow();
      const refused = await post(body, headers);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ status: 400, message: expect.stringMatching(message) });
      expect(usersNow()).toBe(before);
    });

  it(`a body over ${JSON_BODY_LIMIT} bytes, by its declared length or as it arrives`, async () => {
    const before = usersNow();
    const big = JSON.stringify({ ...newUser(), name: 'x'.repeat(JSON_BODY_LIMIT) });
    const declared = await post(big);
    expect(declared.status).toBe(400);
    expect(declared.body.message).toMatch(/larger than 1mb/);
    const streamed = await h.v1('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(usersNow()).toBe(before);
  });

  it('a client that stops half-way through its body: nothing created, the mock answers the next request', async () => {
    const before = usersNow();
    await new Promise<void>((resolve) => {
      const req = request(`${h.base}/openapi/v1/users`, {
        method: 'POST',
        headers: {
          'x-api-key': DEMO_SITE_API_KEY,
          'content-type': 'application/json',
          'content-length': 500,
        },
      });
      req.on('error', () => resolve());
      req.write('{"name": "half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    expect(usersNow()).toBe(before);
    expect((await post(JSON.stringify(newUser()))).status).toBe(201);
  });
});
