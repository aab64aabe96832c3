// The tools as the server runs them: each definition of mcp-schema/ is served verbatim, its
// arguments are validated against its inputSchema (defaults applied, bounds enforced) before any
// backend call, and its `x-backend` calls are made in order (seed 000, "Backend call" columns).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { type BackendCall, createToolAjv, loadTools, type ToolDefinition } from '../lib/tool-schemas.ts';
import type { Backend, BackendAnswer, BackendRequest } from './backend.ts';
import { codeOf, explainFailure, refusesEveryCall } from './errors.ts';
import { readUpload, UPLOADS_OFF, type UploadAccess } from './uploads.ts';

export type Args = Record<string, unknown>;

export type ToolResult = CallToolResult;

/** What tools/list shows of a tool: the definition's MCP fields, verbatim. */
export const listing = (t: ToolDefinition) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  outputSchema: t.outputSchema,
  annotations: t.annotations,
});

const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** `/0/limit: must be <= 50` → "limit must be at most 50". */
function describe(errors: ErrorObject[]): string[] {
  // The branches of a top-level oneOf/anyOf report their own `required`: the choice sentence says it.
  const lines = errors
    .filter((e) => !/^#\/(oneOf|anyOf)\//.test(e.schemaPath))
    .flatMap((e) => {
      const field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      switch (e.keyword) {
        case 'required':
          return [`${String(e.params.missingProperty)} is required`];
        case 'additionalProperties':
          return [`${String(e.params.additionalProperty)} is not a parameter of this tool`];
        case 'maximum':
          return [`${field} must be at most ${String(e.params.limit)}`];
        case 'minimum':
          return [`${field} must be at least ${String(e.params.limit)}`];
        case 'maxLength':
          return [`${field} must be at most ${String(e.params.limit)} characters long`];
        case 'minLength':
          return [
            e.params.limit === 1
              ? `${field} must not be empty`
              : `${field} must be at least ${String(e.params.limit)} characters long`,
          ];
        case 'enum':
          return [`${field} must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`];
        case 'pattern':
          return [
            e.params.pattern === '^/'
              ? `${field} must be an absolute path`
              : `${field} must match ${String(e.params.pattern)}`,
          ];
        case 'oneOf':
        case 'anyOf':
        case 'not':
        case 'if':
          return [];
        default:
          return [`${field || 'arguments'} ${e.message ?? 'is invalid'}`];
      }
    });
  return [...new Set(lines)];
}

/** Exactly-one and at-least-one rules read better as one sentence than as ajv's branch errors. */
function describeChoice(tool: ToolDefinition, errors: ErrorObject[]): string | null {
  const schema = tool.inputSchema as { oneOf?: { required?: string[] }[]; anyOf?: { required?: string[] }[] };
  const names = (list?: { required?: string[] }[]) =>
    (list ?? []).flatMap((s) => s.required ?? []).join(' or ');
  if (errors.some((e) => e.keyword === 'oneOf' && e.instancePath === ''))
    return `give exactly one of ${names(schema.oneOf)}`;
  if (errors.some((e) => e.keyword === 'anyOf' && e.instancePath === ''))
    return `give at least one of ${names(schema.anyOf)}`;
  return null;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    at[part] ??= {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts.at(-1) as string] = value;
}

/** Builds one backend request of a call from the tool's arguments (and the previous call's answer). */
async function buildRequest(
  call: BackendCall,
  args: Args,
  item: unknown,
  previous: unknown,
  uploads: UploadAccess,
): Promise<BackendRequest | string> {
  let path = call.path;
  const query: Record<string, string | number> = {};
  const body: Record<string, unknown> = {};
  let form: FormData | undefined;
  for (const [param, arg] of Object.entries(call.args)) {
    const value = param === call.each ? item : args[param];
    if (value === undefined) continue;
    const wire = arg.wrap === 'array' ? [value] : value;
    if (arg.in === 'path') path = path.replace(`{${arg.name}}`, encodeURIComponent(String(wire)));
    else if (arg.in === 'query') query[arg.name] = wire as string | number;
    else if (arg.in === 'body') setPath(body, arg.name, wire);
    else {
      form ??= new FormData();
      if (arg.as === 'file') {
        const file = await readUpload(String(value), uploads);
        if (typeof file === 'string') return file;
        form.append(arg.name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
      } else form.append(arg.name, String(wire));
    }
  }
  for (const [wire, field] of Object.entries(call.fromPrevious ?? {})) {
    setPath(body, wire, (previous as Record<string, unknown>)?.[field]);
  }
  const hasBody =
    Object.keys(body).length > 0 || (call.method !== 'GET' && call.method !== 'DELETE' && !form);
  return { method: call.method, path, query, ...(hasBody ? { body } : {}), ...(form ? { form } : {}) };
}

const ok = (answer: BackendAnswer) => answer.status >= 200 && answer.status < 300;

export class ToolRunner {
  readonly tools: Map<string, ToolDefinition>;
  private readonly inputs = new Map<string, ValidateFunction>();
  private readonly outputs = new Map<string, ValidateFunction>();
  private ajvs: { withDefaults: Ajv2020; strict: Ajv2020 } | undefined;

  constructor(definitions: ToolDefinition[] = loadTools()) {
    this.tools = new Map(definitions.map((t) => [t.name, t]));
  }

  /**
   * A tool's validator of its arguments or of its answer, compiled at its first call: compiling the
   * 50 schemas at start was 1.1 s of a stdio connection's 2.7 s start, and an agent calls few tools.
   */
  private validator(kind: 'input' | 'output', tool: ToolDefinition): ValidateFunction {
    const kept = kind === 'input' ? this.inputs : this.outputs;
    let validate = kept.get(tool.name);
    if (!validate) {
      this.ajvs ??= { withDefaults: createToolAjv({ useDefaults: true }), strict: createToolAjv() };
      validate =
        kind === 'input'
          ? this.ajvs.withDefaults.compile(tool.inputSchema)
          : this.ajvs.strict.compile(tool.outputSchema);
      kept.set(tool.name, validate);
    }
    return validate;
  }

  /** Checks the arguments (applying defaults); answers the readable problems, or none. */
  check(tool: ToolDefinition, args: Args): string[] {
    const validate = this.validator('input', tool);
    if (validate(args)) return [];
    const errors = validate.errors ?? [];
    const choice = describeChoice(tool, errors);
    return [...(choice ? [choice] : []), ...describe(errors)];
  }

  /**
   * Runs a tool; `status` is the backend's, when a backend call refused. `uploads` says which files
   * a file argument may name (none unless the caller says: the transport decides, mcp-server/uploads.ts).
   */
  async call(
    tool: ToolDefinition,
    rawArgs: Args,
    backend: Backend,
    uploads: UploadAccess = UPLOADS_OFF,
  ): Promise<{ result: ToolResult; status?: number }> {
    // The defaults the check fills in are all top-level, so a shallow copy keeps the caller's object
    // as it was; a deep copy would also walk whatever an agent nests, however deep, before the check.
    const args = { ...rawArgs };
    const problems = this.check(tool, args);
    if (problems.length)
      return { result: failure(`Invalid arguments for ${tool.name}: ${problems.join('; ')}.`) };

    let previous: unknown;
    let outcomes: PerItem | undefined;
    for (const call of tool['x-backend']) {
      if (call.when && args[call.when] === undefined) continue;
      if (call.each) {
        outcomes = await this.eachItem(tool, call, args, previous, backend, uploads);
        continue;
      }
      const request = await buildRequest(call, args, undefined, previous, uploads);
      if (typeof request === 'string') return { result: failure(request) };
      // Named for the mock's journal and its faults on a tool (docs/mock.md).
      const answer = await backend.request({ ...request, tool: tool.name });
      if (!ok(answer)) return { result: failure(explainFailure(tool, answer)), status: answer.status };
      previous = answer.body;
    }
    // bulk_assign, the one tool with a call per item, answers the group and one outcome per course
    // (its outputSchema); every other tool answers its last call's body.
    const structured = (outcomes ? { groupId: args.groupId, results: outcomes.results } : previous) as Args;

    const validate = this.validator('output', tool);
    if (!validate(structured)) {
      return {
        result: failure(
          `The platform's answer to ${tool.name} does not match the tool's output schema (${describe(validate.errors ?? []).join('; ')}); the backend departs from the contract.`,
        ),
      };
    }
    const json = { type: 'text' as const, text: JSON.stringify(structured) };
    if (!outcomes?.summary) return { result: { content: [json], structuredContent: structured } };
    // Some items were not done: a sentence says which and why, besides the outcomes. With none done
    // the call failed as a whole (isError); with some done it changed something, and says what.
    const summary = { type: 'text' as const, text: outcomes.summary };
    return {
      result: outcomes.done
        ? { content: [json, summary], structuredContent: structured }
        : { content: [summary, json], structuredContent: structured, isError: true },
      ...(outcomes.status ? { status: outcomes.status } : {}),
    };
  }

  /**
   * A call made once per item of an array argument (bulk_assign: one POST per course): every item is
   * tried and each one's outcome reported — assigned, with the platform's answer; refused, with why;
   * or skipped, when an earlier item's refusal is one every call meets (the key, the licence, the
   * permission, the rate limit after its retries, a platform that does not answer), not asked again
   * for each item.
   */
  private async eachItem(
    tool: ToolDefinition,
    call: BackendCall,
    args: Args,
    previous: unknown,
    backend: Backend,
    uploads: UploadAccess,
  ): Promise<PerItem> {
    const each = call.each as string;
    const field = call.args[each]?.name ?? each;
    // courseId → "Course 12", "courses 11, 12".
    const label = field.replace(/Id$/, '');
    const Label = label.charAt(0).toUpperCase() + label.slice(1);
    const results: Record<string, unknown>[] = [];
    const refused: string[] = [];
    let stop: ItemError | undefined;
    let status: number | undefined;
    for (const item of args[each] as unknown[]) {
      if (stop) {
        results.push({ [field]: item, outcome: 'skipped', error: stop });
        continue;
      }
      const request = await buildRequest(call, args, item, previous, uploads);
      const answer =
        typeof request === 'string' ? request : await backend.request({ ...request, tool: tool.name });
      if (typeof answer !== 'string' && ok(answer)) {
        results.push({ [field]: item, outcome: 'assigned', ...(answer.body as Record<string, unknown>) });
        continue;
      }
      const message = typeof answer === 'string' ? answer : explainFailure(tool, answer);
      const code = typeof answer === 'string' ? '' : codeOf(answer.body);
      const error: ItemError = {
        ...(typeof answer === 'string' ? {} : { status: answer.status }),
        ...(code ? { code } : {}),
        message,
      };
      results.push({ [field]: item, outcome: 'refused', error });
      refused.push(`${Label} ${String(item)} was refused: ${message}`);
      if (typeof answer === 'string') continue;
      status ??= answer.status;
      if (refusesEveryCall(answer)) stop = error;
    }
    const done = results.filter((r) => r.outcome === 'assigned').length;
    const skipped = results.filter((r) => r.outcome === 'skipped').map((r) => String(r[field]));
    if (skipped.length)
      refused.push(
        `${skipped.length === 1 ? `${Label} ${skipped[0]} was` : `${Label}s ${skipped.join(', ')} were`} not tried: that refusal applies to every call.`,
      );
    const summary = refused.length
      ? `Assigned ${done} of ${results.length} ${label}s. ${refused.join(' ')}`
      : undefined;
    return { results, done, ...(summary ? { summary } : {}), ...(status ? { status } : {}) };
  }
}

/** Why one item was not done: the platform's status and code when it answered, and the sentence. */
interface ItemError {
  status?: number;
  code?: string;
  message: string;
}

interface PerItem {
  results: Record<string, unknown>[];
  done: number;
  /** Which items were not done and why; none when every item was. */
  summary?: string;
  /** The status of the first refusal (a refusal of the key makes the server read its tool list again). */
  status?: number;
}
