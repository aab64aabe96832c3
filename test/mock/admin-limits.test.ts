// In-process HTTP tests of the admin API's limit counters (openapi/admin, getLimits and resetLimits): the
// per-key rate limit and the daily AI quota of /api/v2 (seed 000, Limits; docs/adr-0002).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
// 4 a minute, on a stopped wall clock: no token comes back while the test runs, however slowly.
beforeAll(async () => {
  h = await startHarness('demo', { requestsPerMinute: 4, nowMs: () => 0 });
});
afterAll(() => h.close());

describe('limit counters (seed 000, Limits)', () => {
  it("shows a key's requests in the rate-limit window and its AI calls today, and resets both", async () => {
    const { id, key } = await h.newKey(1, ['read', 'write']);
    const ai = () => h.v2('/ai/lessons/1/regenerate', { method: 'POST', json: {}, key });
    expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
    expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
    expect((await ai()).status).toBe(200);
    expect((await ai()).status).toBe(200);
    expect((await h.v2('/mcp/capabilities', { key })).status).toBe(429);

    const before = await h.admin('/tenants/demo/limits');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ requestsPerMinute: 4, aiCallsPerKeyPerDay: 5, aiCallsToday: 2 });
    expect(before.body.keys.find((k: { keyId: string }) => k.keyId === id)).toMatchObject({
      requestsInWindow: 4,
      aiCallsToday: 2,
    });

    const after = await h.admin('/tenants/demo/limits/reset', { method: 'POST' });
    expect(after.status).toBe(200);
    expect(after.body.aiCallsToday).toBe(0);
    expect(after.body.keys.find((k: { keyId: string }) => k.keyId === id)).toMatchObject({
      requestsInWindow: 0,
      aiCallsToday: 0,
    });
    // The reset is real: the key may make requests again.
    expect((await h.v2('/mcp/capabilities', { key })).status).toBe(200);
  });

  it('answers 404 for a tenant that does not exist and changes nothing', async () => {
    const missing = await h.admin('/tenants/nope/limits/reset', { method: 'POST' });
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await h.admin('/tenants/nope/limits')).status).toBe(404);
  });
});
