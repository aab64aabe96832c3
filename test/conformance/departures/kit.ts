// The vocabulary of the mutation matrix (./index.ts): what a departure and a variation are, and the
// rewrites they are made of, for the proxy in front of the real mock (../proxy.ts).
import { UNKNOWN_ID } from '../../../conformance/checks/helpers.ts';
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
/** A tool the seed announces but that does not exist (mcp-schema/index.json, `absent`). */
export const ABSENT = absentToolNames()[0] as string;
export const V1 = '/openapi/v1';
export const V2 = '/api/v2';

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

export const keyOf = (req: ProxiedRequest) => req.headers['x-mcp-key'];
export const user = (id: string) => ({
  id,
  name: 'lmskit fake',
  language: 'en',
  email: `${id}@example.invalid`,
  isBanned: true,
  role: { alias: 'learner' },
  fromApi: true,
});
export const pad = <T>(list: T[], n: number, clone: (x: T, i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) =>
    i < list.length ? (list[i] as T) : clone(list[i % list.length] as T, i),
  );
