// What the /api/v2 pipeline tests (v2-auth-*.test.ts) share: the tools by kind, the v2 error and 429
// checks, the harness of each file and the admin calls that set a tenant's licence or make a key.
// Every answer is also checked against openapi/v2 by the harness: a handler that drifts from the
// contract fails with a 500.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, expect } from 'vitest';
import { absentToolNames } from '../../lib/tool-schemas.ts';
import { toolNamesIn } from '../helpers.ts';
import { type Harness, startHarness } from './harness.ts';

export type Reply = { status: number; body: any; headers: Headers };

/** Seed 000, "Read tools", "Write tools" and "AI tools": the tools by kind, as mcp-schema/ lists them. */
export const READ_TOOLS = toolNamesIn('read');
export const WRITE_TOOLS = toolNamesIn('write');
export const AI_TOOLS = toolNamesIn('ai-generation', 'ai-refinement');
export const ABSENT_TOOLS = absentToolNames();
export const LICENSE_DISABLED_TEXT = /MCP is not enabled on this workspace, talk to your administrator/;
/** The refusals that the capabilities filter stands for (scope, licence, owner's permission). */
export const CAPABILITY_REFUSALS = [
  'PERMISSION_DENIED',
  'WRITE_SCOPE_REQUIRED',
  'MCP_AI_DISABLED',
  'MCP_LICENSE_DISABLED',
];

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const sorted = (list: string[]) => [...list].sort();
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
export const form = (data: Buffer, name: string) => {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(data)]), name);
  return body;
};

/** A v2 error: the status, the code, and the documented body `{error, code}` and nothing else. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.code }).toEqual({ status, code });
  expect(Object.keys(reply.body).sort()).toEqual(['code', 'error']);
  expect(reply.body.error).toEqual(expect.any(String));
}

/** The delay of a 429: in the message ("retry after Ns") and in Retry-After, the same number. */
export function retryDelay(reply: Reply): number {
  const inMessage = /retry after (\d+)s/i.exec(reply.body.error)?.[1];
  expect(inMessage).toBeDefined();
  expect(reply.headers.get('retry-after')).toBe(inMessage);
  const seconds = Number(inMessage);
  expect(seconds).toBeGreaterThanOrEqual(1);
  return seconds;
}

export const nextUtcMidnight = (now: number) => (Math.floor(now / 86_400) + 1) * 86_400;
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export let h: Harness;
/** Gives the calling test file its harness, started before its tests and closed after them. */
export function useHarness(): void {
  beforeAll(async () => {
    // These files make many failed authentications on purpose: a high per-IP threshold keeps them from
    // locking out the tests that follow. The thresholds themselves are tested on harnesses of their own.
    h = await startHarness('demo', { requestsPerMinute: 0, failedAuthMax: 10_000 });
  });
  afterAll(() => h.close());
}

export const reset = async () => {
  expect((await h.admin('/reset', { method: 'POST', json: {} })).status).toBe(200);
};
export const licence = (patch: {
  mcpAccess?: 'none' | 'read' | 'full';
  mcpAiAccess?: boolean;
  mcpLicensed?: boolean;
}) => h.admin('/tenants/demo', { method: 'PATCH', json: patch });
export const fullLicence = () => licence({ mcpAccess: 'full', mcpAiAccess: true, mcpLicensed: true });
export const keyRecord = async (id: string) => (await h.admin(`/tenants/demo/mcp-keys/${id}`)).body;
export const keyOf = async (userId: number, scopes: ('read' | 'write')[] = ['read', 'write']) =>
  (await h.newKey(userId, scopes)).key;
export const userStatus = (id: number) => h.platform.tenant('demo').users.get(id)?.isBanned;
export const capabilities = async (key: string) => {
  const reply = await h.v2('/mcp/capabilities', { key });
  expect(reply.status).toBe(200);
  return reply.body;
};

/** A request to /api/v2 from another loopback address (to tell two client IPs apart). */
export function requestFrom(
  base: string,
  localAddress: string,
  path: string,
  key: string,
): Promise<{ status: number; body: any }> {
  const url = new URL(`/api/v2${path}`, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        localAddress,
        headers: { 'x-mcp-key': key },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
