// The vocabulary of the mutation matrix (./index.ts): what a departure and a variation are, the
// paths and keys they name, and the rewrites they are made of, for the proxy in front of the real
// mock (../proxy.ts): the generic ones (an answer edited, a request changed or answered here) and the
// shapes many departures share (a field dropped, a key swapped, an error reworded, a status changed).
import { UNKNOWN_ID } from '../../../conformance/checks/common/discover.ts';
import { absentToolNames, loadTools } from '../../../lib/tool-schemas.ts';
import { DEMO_SITE_API_KEY, READ_KEY, WRITE_KEY } from '../../mock/harness.ts';
import type { DeploymentKeys } from '../deployment.ts';
import type { Answer, ProxiedRequest, Rewrite } from '../proxy.ts';

export type { DeploymentKeys };

export { DEMO_SITE_API_KEY, READ_KEY, UNKNOWN_ID, WRITE_KEY };

/** An answer's or a request's JSON, rewritten generically. */
export type Json = any;

export interface Departure {
  name: string;
  /** The seed sentence the deployment breaks. */
  seed: string;
  /** The MUST check that must fail. */
  catches: string;
  /** Other checks that must fail rather than be skipped (a skip caused by the departure). */
  alsoFails?: string[];
  /** The proxy's rewrites; the keys are the deployment's (../deployment.ts), minted for each run. */
  rewrites: (keys: DeploymentKeys) => Rewrite[];
}

export interface Variation {
  name: string;
  /** What the kit assumed, and what this deployment does instead. */
  choice: string;
  /**
   * A SHOULD result that must report it; none for a variation that departs from nothing the kit
   * chose either (a field the seeds do not forbid, read tolerantly), which passes outright.
   */
  noticedBy?: string;
  rewrites: (keys: DeploymentKeys) => Rewrite[];
}

export const AI_TOOLS = loadTools()
  .filter((t) => t['x-licence'].mcpAiAccess)
  .map((t) => t.name);
/** A tool the seed announces but that does not exist (mcp-schema/absent.json). */
export const ABSENT = absentToolNames()[0] as string;
export const V1 = '/openapi/v1';
export const V2 = '/api/v2';

// The paths several departures rewrite, as the proxy sees them.
export const V1_ANY = /^\/openapi\/v1\//;
export const V1_USER = /^\/openapi\/v1\/users\/[^/]+$/;
export const V1_USER_ASSIGNMENTS = /^\/openapi\/v1\/users\/[^/]+\/assignments$/;
export const V1_COURSE_ASSIGNMENTS = /^\/openapi\/v1\/courses\/\d+\/assignments\/users$/;
/** POST: assigns a course (v1). */
export const V1_ASSIGN = /^\/openapi\/v1\/courses\/\d+\/assignments$/;
export const V1_GROUP = /^\/openapi\/v1\/groups\/\d+$/;
export const V1_LAST_EVENT = /^\/openapi\/v1\/webhook\/[^/]+\/last$/;
export const V2_ANY = /^\/api\/v2\//;
export const V2_USER = /^\/api\/v2\/users\/\d+$/;
export const V2_USER_ASSIGNMENTS = /^\/api\/v2\/users\/\d+\/courses\/assignments$/;
export const V2_USER_CERTIFICATES = /^\/api\/v2\/users\/\d+\/certificates$/;
export const V2_CHANGE_EMAIL = /^\/api\/v2\/users\/\d+\/email\/change$/;
export const V2_COURSE = /^\/api\/v2\/courses\/\d+$/;
/** POST: assigns a course to groups (bulk_assign). */
export const V2_ASSIGN_GROUPS = /^\/api\/v2\/courses\/\d+\/assignments$/;
export const V2_ASSIGN_CHAIN = /^\/api\/v2\/courseChains\/\d+\/assign$/;
export const V2_GENERATION_JOB = /^\/api\/v2\/ai\/courses\/generate\/[^/]+$/;
export const V2_REFINE = /^\/api\/v2\/ai\/courses\/\d+\/refine$/;

/** The MCP key a request is sent with. */
export const keyOf = (req: ProxiedRequest) => req.headers['x-mcp-key'];

/** A v1 user as a deployment that made it up would answer it (banned: the answer of a ban). */
export const user = (id: string) => ({
  id,
  name: 'lmskit fake',
  language: 'en',
  email: `${id}@example.invalid`,
  isBanned: true,
  role: { alias: 'learner' },
  fromApi: true,
});

/** A list made `n` long: its own items, then clones of them. */
export const pad = <T>(list: T[], n: number, clone: (x: T, i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) =>
    i < list.length ? (list[i] as T) : clone(list[i % list.length] as T, i),
  );

// --- Rewrites --------------------------------------------------------------------------------------

/** Rewrites a successful JSON answer in place (or replaces it with what `edit` returns). */
export const onAnswer = (
  method: string,
  path: string | RegExp,
  edit: (body: Json, req: ProxiedRequest, answer: Answer) => unknown,
): Rewrite => ({
  method,
  path,
  response: (answer, req) => {
    if (answer.status >= 300 || answer.body === undefined || Buffer.isBuffer(answer.body)) return;
    const out = edit(answer.body, req, answer);
    if (out !== undefined) answer.body = out;
  },
});

/** Answers a request here, without the platform seeing it, when `when` holds. */
export const fake = (
  method: string,
  path: string | RegExp,
  when: (req: ProxiedRequest) => boolean,
  make: (req: ProxiedRequest) => Answer,
): Rewrite => ({
  method,
  path,
  request: (req) => (when(req) ? make(req) : undefined),
});

/** Changes a request before the platform sees it. */
export const onRequest = (
  method: string,
  path: string | RegExp,
  edit: (req: ProxiedRequest) => void,
): Rewrite => ({
  method,
  path,
  request: (req) => {
    edit(req);
  },
});

/** Turns a refusal into a success: the platform refused, the deployment says yes. */
export const accept = (
  method: string,
  path: string | RegExp,
  status: number,
  make: (req: ProxiedRequest) => Json,
): Rewrite => ({
  method,
  path,
  response: (answer, req) => (answer.status === status ? { status: 200, body: make(req) } : undefined),
});

/** A JSON-RPC answer of the tool server, rewritten when the call is `method` (and the tool `tool`). */
export const onRpc = (
  method: string,
  edit: (result: Json, req: ProxiedRequest) => void,
  tool?: string,
): Rewrite => ({
  method: 'POST',
  path: '/mcp',
  response: (answer, req) => {
    const call = req.json as { method?: string; params?: { name?: string } } | undefined;
    if (call?.method !== method || (tool && call.params?.name !== tool)) return;
    const body = answer.body as { result?: Json } | undefined;
    if (body?.result) edit(body.result, req);
  },
});

// --- Rewrites many departures share --------------------------------------------------------------

/** Drops fields from a request's JSON body before the platform sees it: an option ignored. */
export const dropFields = (method: string, path: string | RegExp, ...fields: string[]): Rewrite =>
  onRequest(method, path, (req) => {
    for (const field of fields) delete (req.json as Json)?.[field];
  });

/** Sends a key with a request that has none: a deployment that lets a keyless request through. */
export const lendKey = (method: string, path: string | RegExp, header: string, key: string): Rewrite =>
  onRequest(method, path, (req) => {
    req.headers[header] ??= key;
  });

/** Sends a request made with the MCP key `from` as if made with `to`: whose request it is is ignored. */
export const actAs = (method: string, path: string | RegExp, from: string, to: string): Rewrite =>
  onRequest(method, path, (req) => {
    if (keyOf(req) === from) req.headers['x-mcp-key'] = to;
  });

/** Answers a request here with a v2 error `{error, code}` when `when` holds. */
export const refuse = (
  method: string,
  path: string | RegExp,
  when: (req: ProxiedRequest) => boolean,
  status: number,
  error: string,
  code: string,
): Rewrite => fake(method, path, when, () => ({ status, body: { error, code } }));

/** Edits the JSON body of the answers of one status (`method` any when not given). */
export const onStatus = (
  path: string | RegExp,
  status: number,
  edit: (body: Json) => void,
  method?: string,
): Rewrite => ({
  ...(method ? { method } : {}),
  path,
  response: (answer) => {
    if (answer.status === status && answer.body && !Buffer.isBuffer(answer.body)) edit(answer.body);
  },
});

/** Answers another success status than the platform: a choice of code the seeds leave open. */
export const restatus = (method: string, path: string | RegExp, from: number, to: number): Rewrite => ({
  method,
  path,
  response: (answer) => {
    if (answer.status === from) answer.status = to;
  },
});

/** Rewrites the capabilities the deployment answers for one key: what it says the key may do. */
export const capabilitiesFor = (key: string, edit: (capabilities: Json) => void): Rewrite =>
  onAnswer('GET', `${V2}/mcp/capabilities`, (b, req) => {
    if (keyOf(req) === key) edit(b);
  });

/** The tool server's JSON-RPC answer to a request: a tool result with one text. */
export const toolResult = (req: ProxiedRequest, text: string): Answer => ({
  status: 200,
  body: { jsonrpc: '2.0', id: (req.json as Json).id, result: { content: [{ type: 'text', text }] } },
});
