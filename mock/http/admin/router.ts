// The mock's admin API (openapi/admin): tenants and licences, MCP keys (the seed's settings UI),
// the clock, learner progress, publishing, webhook receivers, the request journal, faults, snapshots.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { components, PathOperations } from '../../../generated/admin.ts';
import { countValues } from '../../../lib/json-values.ts';
import { type Node, resolveRef } from '../../../lib/spec-walk.ts';
import { toIso } from '../../domain/clock.ts';
import { generateKey } from '../../domain/mcp-keys.ts';
import type { McpKey, WebhookReceiver } from '../../domain/model.ts';
import type { Platform, Snapshot } from '../../domain/platform.ts';
import type { TenantState } from '../../domain/tenant-state.ts';
import { prepareFixture } from '../../seed/fixtures.ts';
import { sendInvalid } from '../apis.ts';
import { MAX_PATTERN_VALUES } from '../body-match.ts';
import { ROUTED_METHODS } from '../contract/operations.ts';
import { contractRouter, type InputProblem } from '../contract.ts';
import { errorAnswer, sendError } from '../error-body.ts';
import { type FaultInjector, MAX_FAULTS } from '../faults.ts';
import { type RequestJournal, thenOf } from '../journal.ts';
import { contextOf } from '../request-context.ts';
import { type Handlers, ok } from '../typed-handlers.ts';
import type { RateLimiter } from '../v2/pipeline/counters.ts';
import { assignmentView, dataHandlers } from './data.ts';
import { deliveryHandlers } from './delivery.ts';
import { fixtureHandlers } from './fixtures.ts';
import { journalHandlers } from './journal.ts';
import { limitsHandlers } from './limits.ts';
import { userIdOf } from './user-ref.ts';

type StateSnapshot = components['schemas']['StateSnapshot'];
type ResetPart = components['schemas']['ResetPart'];

/**
 * What the mock started from, which a reset that names no seed brings back: a seed's name (`demo`,
 * `empty`, `scale`) or fixtures (mock/app.ts, `start`).
 */
export type StartState = { seed: string } | { fixture: components['schemas']['Fixture'] };

export interface AdminOptions {
  spec: Record<string, unknown>;
  platform: Platform;
  /** The injected faults, which the admin API lists, adds, removes and clears. */
  faults: FaultInjector;
  /** The /api/v2 per-key rate limiter, whose counters getLimits shows and resetLimits empties. */
  rateLimiter: RateLimiter;
  journal: RequestJournal;
  adminToken: string;
  version: string;
  /** What a reset that names no seed brings back (mock/app.ts, `start`). */
  start: StartState;
  onResponseMismatch?: Parameters<typeof contractRouter>[0]['onResponseMismatch'];
  /** The answer to an error thrown while an answer is made (mock/app.ts), checked as answers are. */
  answerError?: Parameters<typeof contractRouter>[0]['answerError'];
}

const tenantView = (t: TenantState) => ({
  id: t.id,
  name: t.name,
  siteApiKey: t.siteApiKey,
  mcpLicensed: t.mcpLicensed,
  mcpAccess: t.mcpAccess,
  mcpAiAccess: t.mcpAiAccess,
});

const keyRecord = (k: McpKey) => ({
  id: k.id,
  prefix: k.prefix,
  scopes: k.scopes,
  userId: k.userId,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

const receiverView = (r: WebhookReceiver) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  createdAt: r.createdAt,
});

function tokenMatches(given: string | undefined, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminRouter(options: AdminOptions) {
  const { platform, faults } = options;
  const unknownQuery = unknownQueryParameters(options.spec);
  const run = platform.run.bind(platform);
  const tenantId = (input: { params: { tenantId: string } }) => input.params.tenantId;
  const tenant = (input: { params: { tenantId: string } }) => platform.tenant(tenantId(input));
  const clock = () => ({ now: platform.now(), iso: toIso(platform.now()) });

  const handlers: Handlers<PathOperations> = {
    getHealth: (_req, _res) => ok({ status: 'ok', version: options.version }),
    // Everything a test can change is put back unless kept, so a reset per test leaks nothing into
    // the next (openapi/admin, resetState): the state with its clock, and with it the rate-limit
    // counters (the v2 pipeline forgets them on every load); the faults and the journal here.
    resetState: (_req, res, { body }) => {
      // Without a seed named, back to what the mock started from: its seed, or its fixtures, loaded by
      // the logged command a fixture load is (so a state file replays the same state).
      const { start } = options;
      const back = body?.seed === undefined && 'fixture' in start ? start.fixture : undefined;
      const seed = back ? 'fixtures' : (body?.seed ?? ('seed' in start ? start.seed : 'demo'));
      const keep = new Set(body?.keep ?? []);
      const now = back
        ? run('loadFixtures', { fixtures: prepareFixture(back, platform.settings) })
        : run('reset', { seed });
      const reset: ResetPart[] = ['state', 'clock', 'limits'];
      if (!keep.has('faults')) {
        faults.clearFaults({ restart: true });
        reset.push('faults');
      }
      // A shared store's journal is cleared for every replica, in PostgreSQL: answered once done.
      let cleared: number | Promise<number> = 0;
      if (!keep.has('journal')) {
        cleared = options.journal.clear();
        // The journal starts empty: the reset that cleared it is not recorded either.
        options.journal.forget(res);
        reset.push('journal');
      }
      const kept: ResetPart[] = [...keep];
      return thenOf(cleared, () =>
        ok({ seed: seed as 'demo' | 'empty' | 'scale' | 'fixtures', now, reset, kept }),
      );
    },

    createTenant: (_req, _res, { body }) => {
      const admin = body.admin ?? { name: 'Administrator', email: `admin@${body.id}.example` };
      const created = run('createTenant', {
        tenant: {
          id: body.id,
          name: body.name ?? body.id,
          siteApiKey: body.siteApiKey ?? `${body.id}_site_key_${randomBytes(12).toString('hex')}`,
          mcpLicensed: body.mcpLicensed ?? true,
          mcpAccess: body.mcpAccess ?? 'none',
          mcpAiAccess: body.mcpAiAccess ?? true,
        },
        input: {
          id: admin.id ?? 'admin',
          name: admin.name,
          email: admin.email,
          password: admin.password ?? randomBytes(18).toString('base64url'),
          roleAlias: 'admin',
        },
      });
      return { status: 201 as const, body: tenantView(created) };
    },
    getTenant: (_req, _res, input) => ok(tenantView(tenant(input))),
    updateTenant: (_req, _res, input) =>
      ok(tenantView(run('updateTenant', { tenantId: tenantId(input), ...input.body }))),
    ...dataHandlers(platform),
    ...limitsHandlers(platform, options.rateLimiter),
    ...deliveryHandlers(platform),
    ...fixtureHandlers(platform),

    listMcpKeys: (_req, _res, input) => ok({ keys: [...tenant(input).mcpKeys.values()].map(keyRecord) }),
    createMcpKey: (_req, _res, input) => {
      const t = tenant(input);
      const { key, prefix, hash } = generateKey();
      const record = run('createMcpKey', {
        tenantId: t.id,
        id: `key_${randomBytes(6).toString('hex')}`,
        userId: userIdOf(t, input.body.userId),
        prefix,
        hash,
        scopes: input.body.scopes,
      });
      return {
        status: 201 as const,
        body: {
          id: record.id,
          key,
          scopes: record.scopes,
          userId: record.userId,
          createdAt: record.createdAt,
        },
      };
    },
    getMcpKey: (_req, _res, input) => {
      const key = tenant(input).mcpKeys.get(String(input.params.keyId));
      if (!key)
        return errorAnswer({
          status: 404,
          code: 'NOT_FOUND',
          message: `Key ${input.params.keyId} not found.`,
        });
      return ok(keyRecord(key));
    },
    revokeMcpKey: (_req, _res, input) =>
      ok(keyRecord(run('revokeMcpKey', { tenantId: tenantId(input), keyId: String(input.params.keyId) }))),

    getClock: (_req, _res) => ok(clock()),
    advanceClock: (_req, _res, { body }) => {
      run('advanceClock', { seconds: body.seconds });
      return ok(clock());
    },
    setClock: (_req, _res, { body }) => {
      run('setClock', { now: body.now });
      return ok(clock());
    },

    recordProgress: (_req, _res, input) => {
      const t = tenant(input);
      const a = run('recordProgress', {
        tenantId: t.id,
        userId: userIdOf(t, input.params.userId),
        courseId: Number(input.params.courseId),
        action: input.body.action,
        progressValue: input.body.progressValue,
        resultValue: input.body.resultValue,
      });
      return ok(assignmentView(t, a, platform.now()));
    },
    publishCourse: (_req, _res, input) => {
      const c = run('publishCourse', { tenantId: tenantId(input), courseId: Number(input.params.courseId) });
      // publishCourse leaves no draft behind; the contract's answer says so by type.
      if (c.isDraft || c.publishedAt === null)
        throw new Error(`course ${c.id} is still a draft after publishing`);
      return ok({ id: c.id, name: c.name, isDraft: false, publishedAt: c.publishedAt });
    },

    listWebhookReceivers: (_req, _res, input) =>
      ok({ receivers: [...tenant(input).receivers.values()].map(receiverView) }),
    createWebhookReceiver: (_req, _res, input) => {
      const { url, secret, events } = input.body;
      return {
        status: 201 as const,
        body: receiverView(
          run('createReceiver', { tenantId: tenantId(input), url, secret, events: events ?? null }),
        ),
      };
    },
    deleteWebhookReceiver: (_req, _res, input) =>
      ok(
        receiverView(
          run('deleteReceiver', { tenantId: tenantId(input), receiverId: String(input.params.receiverId) }),
        ),
      ),
    listWebhookDeliveries: (_req, _res, input) => {
      const receiverId = input.query.receiverId as string | undefined;
      const deliveries = [...tenant(input).deliveries.values()]
        .filter((d) => !receiverId || d.receiverId === receiverId)
        .reverse()
        .slice(0, Number(input.query.limit))
        .map((d) => ({ ...d, eventId: `evt_${d.eventId}` }));
      return ok({ deliveries });
    },

    getAiSettings: (_req, _res, input) => ok(tenant(input).ai),
    updateAiSettings: (_req, _res, input) =>
      ok(run('updateAiSettings', { tenantId: tenantId(input), patch: input.body })),

    ...journalHandlers(options.journal),
    listFaults: (_req, _res) => ok({ faults: faults.inForce.map(faultView) }),
    createFault: (_req, _res, { body }) => {
      if (faults.inForce.length >= MAX_FAULTS)
        return errorAnswer({
          status: 409,
          code: 'TOO_MANY_FAULTS',
          message: `At most ${MAX_FAULTS} faults are in force at a time; clear some with DELETE /__admin/faults.`,
        });
      // A pattern is compared with the body of every request its fault could apply to: bounded.
      if (
        body.match?.body !== undefined &&
        countValues(body.match.body, MAX_PATTERN_VALUES + 1) > MAX_PATTERN_VALUES
      )
        return errorAnswer({
          status: 400,
          code: 'VALIDATION_ERROR',
          message: `Invalid request: body.match.body may hold at most ${MAX_PATTERN_VALUES} values (objects, arrays and scalars, counted through the nesting).`,
        });
      const fault = faults.addFault({
        method: body.method ?? null,
        path: body.path ?? null,
        tool: body.tool ?? null,
        ...(body.match ? { match: body.match } : {}),
        count: body.count ?? 1,
        status: body.status ?? null,
        latencyMs: body.latencyMs ?? null,
        ...(body.body !== undefined ? { body: body.body } : {}),
      });
      return { status: 201 as const, body: faultView(fault) };
    },
    deleteFault: (_req, _res, input) => {
      const fault = faults.removeFault(input.params.faultId);
      if (!fault)
        return errorAnswer({
          status: 404,
          code: 'NOT_FOUND',
          message: `Fault ${input.params.faultId} not found; it may have run out.`,
        });
      return ok(faultView(fault));
    },
    clearFaults: (_req, _res) => {
      faults.clearFaults();
      return { status: 200, body: { faults: [] } };
    },

    // The contract describes a snapshot's records loosely (identifiers checked, the rest open: its inner
    // shape belongs to the mock), so the domain's record interfaces and the open records it generates
    // cannot be related by the compiler; the answer is still checked against the contract in tests.
    exportSnapshot: (_req, _res) => ok(platform.snapshot() as unknown as StateSnapshot),
    importSnapshot: (_req, _res, { body }) => {
      const now = run('importSnapshot', {
        // The contract checks the envelope; loadSnapshot refuses tenants it cannot load.
        snapshot: body as unknown as Snapshot,
      });
      return { status: 200, body: { now, tenants: [...platform.tenants.keys()] } };
    },
  };

  return contractRouter({
    spec: options.spec,
    handlers,
    // With --fsync a write's answer waits for its line to be on disk (docs/mock.md, Durable state).
    durability: platform,
    before: (req, res, operation) => {
      if (operation.security?.length === 0) return true;
      const header = req.get('authorization') ?? '';
      // The scheme is part of the credential (RFC 6750): a bare token is refused as the message says.
      const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
      if (!tokenMatches(token, options.adminToken)) {
        sendError(res, {
          status: 401,
          code: 'UNAUTHORIZED',
          message:
            'Missing or invalid admin token; send Authorization: Bearer with the token printed at start.',
        });
        return false;
      }
      const unknown = unknownQuery(req, operation);
      if (unknown.length) {
        // For the request journal's verdict, as the contract router's own refusals are (contract.ts).
        contextOf(res).inputProblems = unknown;
        sendInvalid('admin', res, unknown);
        return false;
      }
      return true;
    },
    invalid: (res, problems) => sendInvalid('admin', res, problems),
    onResponseMismatch: options.onResponseMismatch,
    answerError: options.answerError,
  });
}

/**
 * The query parameters of a request that its operation does not take, as input problems. Operations
 * that take query parameters (filters, paging) and every DELETE are held to them, and each documents the
 * 400: a misspelt filter (`?operation=` for `?operationId=`) would otherwise be ignored and pass for an
 * empty or unfiltered result (docs/mock.md, "Driving it from tests").
 */
function unknownQueryParameters(spec: Node): (req: Request, operation: Node) => InputProblem[] {
  const known = new Map<string, Set<string>>();
  for (const item of Object.values(spec.paths as Record<string, Node>))
    for (const method of ROUTED_METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const names = [...(item.parameters ?? []), ...(operation.parameters ?? [])]
        .map((p: Node) => resolveRef(spec, p) as Node)
        .filter((p) => p.in === 'query')
        .map((p) => String(p.name));
      // A clear takes no filter: `DELETE /__admin/journal?api=v1` would clear everything.
      if (names.length || method === 'delete') known.set(operation.operationId, new Set(names));
    }
  return (req, operation) => {
    const names = known.get(operation.operationId);
    if (!names) return [];
    return Object.keys(req.query as object)
      .filter((name) => !names.has(name))
      .map((name) => ({
        in: 'query' as const,
        name,
        errors: [
          {
            keyword: 'unknownParameter',
            instancePath: '',
            schemaPath: '#/parameters',
            params: { known: [...names] },
            message: names.size
              ? `is not a parameter of ${operation.operationId}, which takes ${[...names].join(', ')}`
              : `is not a parameter of ${operation.operationId}, which takes none (it clears everything)`,
          },
        ],
      }));
  };
}

const faultView = (f: ReturnType<FaultInjector['addFault']>) => ({
  id: f.id,
  method: f.method,
  path: f.path,
  tool: f.tool,
  ...(f.match ? { match: f.match } : {}),
  remaining: f.remaining,
  status: f.status,
  latencyMs: f.latencyMs,
  ...(f.body !== undefined ? { body: f.body } : {}),
});
