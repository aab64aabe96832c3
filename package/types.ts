// The types of the package's API (package/index.ts): the mock's options and handle, and the admin
// contract's shapes its methods take and give (generated/admin.ts), under the names a test uses.
import type { operations as AdminOperations, components as AdminSchemas } from '../generated/admin.ts';
import type { AdminClient } from '../lib/admin-client.ts';
import type { McpServer } from '../mcp-server/start.ts';

type Admin = AdminSchemas['schemas'];
type JournalEntry = Admin['JournalEntry'];
/** A request the mock answered, in full: the journal's entry with its request and answer (bodies parsed, secrets masked). */
export type JournalRequest = JournalEntry & Required<Pick<JournalEntry, 'request' | 'response'>>;
type JournalQuery = NonNullable<AdminOperations['getRequestJournal']['parameters']['query']>;
/**
 * Which requests `mock.requests` returns: the filters of `GET /__admin/journal` (all must hold), with
 * `body` a JSON value the request's JSON body must match (an object: at least its properties; an array:
 * the same items; anything else: equal), and `limit` the most recent requests to look at.
 */
export type RequestFilter = Omit<JournalQuery, 'body' | 'full'> & { body?: unknown };
/** A fault to inject (`POST /__admin/faults`): which requests, how many, and the answer or delay. */
export type FaultSpec = Admin['CreateFaultRequest'];
export type Fault = Admin['Fault'];
/** What `mock.reset` loads and keeps (`POST /__admin/reset`). */
export type ResetOptions = Admin['ResetRequest'];
export type ResetResult = Admin['ResetResult'];
/** A platform state written by hand (`POST /__admin/fixtures`, docs/mock.md, Fixtures). */
export type Fixture = Admin['Fixture'];
/** AI settings of every tenant the mock starts with (`PATCH /__admin/tenants/{tenantId}/ai`). */
export type AiSettingsPatch = Admin['UpdateAiSettingsRequest'];
/** The state after `loadFixtures`: the virtual time and the tenants loaded. */
export type LoadFixturesResult = Admin['ImportSnapshotResult'];

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /**
   * Host names besides localhost's and `host` that requests may name in their Host header (as
   * `--allowed-hosts`); a request naming any other is refused 403 (DNS rebinding).
   */
  allowedHosts?: string[];
  /**
   * The state to start from: `demo` (the default: the Demo Academy of docs/mock.md, 13 users, 48
   * courses, licence `full` with AI, the demo's choice) or `empty` (the same tenant and site key with
   * only its administrator, ada, and MCP access `none`, seed 000's default).
   */
  seed?: 'demo' | 'empty';
  /**
   * Fixtures to start from instead of a seed: a path to a YAML or JSON file (relative to the working
   * directory), or the object itself, of the admin contract's `Fixture` schema. `tenantId`,
   * `siteApiKey` and `mcpKeys` are then those of its first tenant (whose MCP access is `none`, seed
   * 000's default, unless it gives `mcpAccess`). A problem rejects with a sentence
   * naming the entry and field (`startMock: fixtures: tenants[0].users[2].email: already used by …`).
   */
  fixtures?: string | Fixture;
  /**
   * A large deterministic seed instead, as `lmskit mock --seed-scale`: `users=100000,courses=1000,
   * assignments=500000` (tenant `demo`, the demo keys, MCP access `none`); refused when it would not
   * fit in memory.
   */
  seedScale?: string;
  /**
   * The course generator's settings of every tenant the mock starts with, and of those a reset or
   * `loadFixtures` brings (fixtures' own `ai` wins): `{ generationMinSeconds: 0, generationMaxSeconds: 0 }`
   * finishes generation jobs at once, even on a frozen clock. Default: 10 to 30 s of virtual time.
   */
  ai?: AiSettingsPatch;
  /**
   * `frozen` (the default): the virtual clock moves only when the test advances or sets it
   * (`admin.POST('/clock/advance')`), so timestamps and deadlines are the same on every run.
   * `running`: it follows wall time from the seed's start, as `npx lmskit mock` does.
   */
  clock?: 'frozen' | 'running';
  /** Bearer token of `/__admin`; default: random. */
  adminToken?: string;
  /** `/api/v2` requests per MCP key per minute; default 120, 0 = no limit. */
  rateLimit?: number;
  /** Requests the request journal keeps (`admin.GET('/journal')`), 1 to 100 000; default 1000. */
  journalSize?: number;
  /**
   * A PostgreSQL URL (`postgres://USER:PASSWORD@HOST:PORT/DB`): the platform is the one every mock
   * started with the same store serves (docs/mock.md, Shared sandbox). The first makes it from its
   * seed or fixtures; the others join it. Default: in this process's memory.
   */
  store?: string;
}

export interface Mock {
  /** The mock's origin, e.g. `http://127.0.0.1:41233`; the APIs are under `/openapi/v1`, `/api/v2`, `/__admin`. */
  url: string;
  /** The tenant's site API key (the demo's, or the fixtures' first tenant's), for `X-API-KEY` of `/openapi/v1`. */
  siteApiKey: string;
  /**
   * MCP keys of the tenant's administrator, ada, for `X-MCP-Key` of `/api/v2` and the tool server;
   * with fixtures, the first read-only and the first write key they give (else keys made for the
   * tenant's first administrator).
   */
  mcpKeys: { read: string; write: string };
  /** The tenant the keys select (`demo`, or the fixtures' first tenant); the admin API's paths take it as `tenantId`. */
  tenantId: string;
  adminToken: string;
  /** The admin API of this mock, typed from its contract: clock, licence, keys, journal, reset, faults. */
  admin: AdminClient;
  /**
   * The requests the mock answered that pass `filter`, oldest first, each in full (request and answer
   * bodies parsed, secrets masked): what a client sent, to assert on (`GET /__admin/journal?full=true`).
   * An unknown filter is refused (the promise rejects, naming it).
   */
  requests(filter?: RequestFilter): Promise<JournalRequest[]>;
  /** Empties the request journal (`DELETE /__admin/journal`): `requests()` then shows only what came after. */
  clearRequests(): Promise<void>;
  /** Injects a fault (`POST /__admin/faults`), e.g. `{ tool: 'ban_user', status: 503 }`; resolves to it. */
  fault(fault: FaultSpec): Promise<Fault>;
  /** Removes every fault (`DELETE /__admin/faults`). */
  clearFaults(): Promise<void>;
  /**
   * Puts back everything a test can change (`POST /__admin/reset`): the state the mock started from
   * (its seed or its fixtures; `seed` names another), the clock, the rate-limit counters, the faults and
   * the journal, unless `keep` names some; resolves to what it reset.
   */
  reset(options?: ResetOptions): Promise<ResetResult>;
  /**
   * An official MCP SDK client of the tool server for this mock, connected with `key` (one of
   * `mcpKeys`, or a key minted through the admin API): the first call starts the tool server in this
   * process (`startMcpServer({ baseUrl: url })`, once per mock), and `stop()` stops it and closes
   * its clients. For its URL, an upload root or a key of its own, call `startMcpServer` instead.
   */
  mcpClient(key: string): Promise<McpClient>;
  /**
   * Replaces the whole state with fixtures (`POST /__admin/fixtures`): a path to a YAML or JSON file,
   * the object itself, or, without an argument, the fixtures this mock started from. Faults and the
   * journal stay; after `reset()`, which loads a seed, it brings a test's own data back. Rejects with
   * the admin API's sentence, which names the entry and field.
   */
  loadFixtures(fixtures?: string | Fixture): Promise<LoadFixturesResult>;
  /**
   * Closes the port and every open connection, stops webhook deliveries, and stops the tool server
   * `mcpClient` started, with its clients. Safe to call twice.
   */
  stop(): Promise<void>;
}

/** The official MCP SDK's client (`@modelcontextprotocol/sdk/client/index.js`), as `mcpClient` returns it. */
export type McpClient = Awaited<ReturnType<McpServer['client']>>;
