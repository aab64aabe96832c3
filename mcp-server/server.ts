// One MCP server for one key. It offers exactly the tools the backend's
// capabilities list for that key (never the two announced ones that do not exist), and refreshes that
// list when asked for it or when a call suggests the key's rights changed, telling the client through
// `notifications/tools/list_changed`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { operations } from '../generated/v2.ts';
import { absentToolNames, type ToolDefinition } from '../lib/tool-schemas.ts';
import type { Backend, BackendPath } from './backend.ts';
import { explainFailure } from './errors.ts';
import { type KeyCapabilities, notOfferedMessage, probeRequest } from './not-offered.ts';
import { errorMessage, idOf, invalidParams, RpcCode, rpcError } from './rpc.ts';
import { type Args, listing, type ToolRunner } from './tools.ts';
import { UPLOADS_OFF, type UploadAccess } from './uploads.ts';

/** Announced in the seed's catalogue but with no backend: never offered (seed 000, What the service does 5). */
export const ABSENT_TOOLS = absentToolNames();

export interface ToolServerOptions {
  backend: Backend;
  runner: ToolRunner;
  version: string;
  /** How long a fetched tool list is trusted before tools/list asks the backend again. */
  refreshMs?: number;
  /** A list fetched earlier for the same key (HTTP: one server per request, the list cached per key). */
  known?: { names: string[]; at: number };
  onRefresh?: (names: string[]) => void;
  /** Which files upload_source_material may read (stdio: any path; HTTP: the upload root); none by default. */
  uploads?: UploadAccess;
}

/** The capabilities answer as openapi/v2 documents it (generated/v2.ts). */
type Capabilities = operations['getCapabilities']['responses'][200]['content']['application/json'];
const CAPABILITIES: BackendPath = '/mcp/capabilities';

/** The names the capabilities endpoint lists for the backend's key, or why it could not be read. */
export async function fetchToolNames(
  backend: Backend,
  runner: ToolRunner,
): Promise<{
  names: string[];
  problem?: string;
  status: number;
  retryAfter?: number;
  capabilities?: KeyCapabilities;
}> {
  const answer = await backend.request({ method: 'GET', path: CAPABILITIES });
  if (answer.status !== 200) {
    const anyTool = runner.tools.values().next().value;
    return {
      names: [],
      status: answer.status,
      problem: anyTool ? explainFailure(anyTool, answer) : `capabilities answered ${answer.status}`,
      ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}),
    };
  }
  // Typed from the contract, yet checked: the backend may be any deployment, not only the mock.
  const listed: unknown = (answer.body as Partial<Capabilities> | undefined)?.tools;
  const names = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : [];
  const { tier, scopes } = (answer.body ?? {}) as KeyCapabilities;
  return {
    names: names.filter((n) => runner.tools.has(n) && !ABSENT_TOOLS.includes(n)),
    status: 200,
    capabilities: { tier, scopes },
  };
}

/** Why the platform refuses the key now: the JSON-RPC code and HTTP status that say so. */
export interface Refusal {
  code: number;
  status: number;
  message: string;
  retryAfter?: number;
}

/**
 * The SDK server's JSON Schema validator (it checks the answers to elicitation requests, which this
 * server never sends), one for every server: left to itself, each SDK server builds an Ajv instance
 * of its own, and over HTTP, with a server per request, that was the largest single cost of a call in
 * a CPU profile of the tool server under load.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** The backend's word on a key: these statuses change the tool list, anything else is passing trouble. */
const AUTHORITATIVE = [200, 401, 402, 403];

export class ToolServer {
  readonly server: Server;
  private names: string[] = [];
  private fetchedAt = 0;
  private retryAfter: number | undefined;
  /** The scopes and tier of the last capabilities answer read by this server (none from a cached list). */
  private capabilities: KeyCapabilities | undefined;
  problem: string | undefined;
  /** The backend's status for the key at the last refresh (401: the key is not accepted). */
  status = 0;

  constructor(private readonly options: ToolServerOptions) {
    if (options.known) {
      this.names = options.known.names;
      this.fetchedAt = options.known.at;
    }
    this.server = new Server(
      { name: 'lmskit', title: 'Learning platform tools (lmskit)', version: options.version },
      {
        capabilities: { tools: { listChanged: true } },
        jsonSchemaValidator: SCHEMA_VALIDATOR,
        instructions:
          'Tools act on one learning-platform workspace as the owner of the MCP key. AI course generation: upload_source_material per file, then create_course_from_files (or create_course_from_prompt), then poll get_course_generation_status every 3-5 seconds until completed.',
      },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      if (Date.now() - this.fetchedAt > (this.options.refreshMs ?? 1000)) await this.refresh(false);
      return { tools: this.names.map((n) => listing(this.options.runner.tools.get(n) as never)) };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      const exists = options.runner.tools.get(name);
      // A client may call before it lists (or the list may be stale): ask the backend first; and a
      // tool that exists but is not offered is explained from capabilities this server read itself.
      const stale = Date.now() - this.fetchedAt > (this.options.refreshMs ?? 1000);
      if (!this.names.includes(name) && (stale || (exists && !this.capabilities))) await this.refresh(false);
      const tool = this.names.includes(name) ? exists : undefined;
      if (!tool && !exists) {
        // MCP spec: an unknown tool is a protocol error, not a tool result.
        const why = this.problem ?? 'Call tools/list for the tools this key may use.';
        throw rpcError(RpcCode.InvalidParams, `Unknown tool: ${name}. ${why}`);
      }
      // A tool of the platform this key is not offered: refused, never called, with the reason as a
      // tool error, which clients hand to the model (MCP, "Tools": error handling), where a protocol
      // error may never reach it.
      if (!tool) return this.notOffered(exists as ToolDefinition);
      const { result, status } = await options.runner.call(
        tool,
        (args ?? {}) as Args,
        options.backend,
        options.uploads ?? UPLOADS_OFF,
      );
      // A refusal of the key or of the licence (401, 402, 403) means the offered list may be stale.
      if (status === 401 || status === 402 || status === 403) await this.refresh(true);
      return result;
    });
  }

  /** Reads the tool list again; tells the client when it changed. */
  async refresh(notify = true): Promise<string[]> {
    const {
      names: fetched,
      problem,
      status,
      retryAfter,
      capabilities,
    } = await fetchToolNames(this.options.backend, this.options.runner);
    this.status = status;
    this.retryAfter = retryAfter;
    if (capabilities) this.capabilities = capabilities;
    // Only the backend's word on the key (200, or a refusal of it) changes the list; a passing 429,
    // 5xx or network failure keeps the tools the agent had.
    const authoritative = AUTHORITATIVE.includes(status);
    const names = authoritative ? fetched : this.names;
    const changed = names.join() !== this.names.join();
    this.names = names;
    this.problem = problem;
    this.fetchedAt = Date.now();
    if (authoritative) this.options.onRefresh?.(names);
    if (changed && notify) await this.server.sendToolListChanged().catch(() => {});
    return names;
  }

  /**
   * Why the key cannot be served now, by the last refresh: refused (401), told to wait (429, e.g. too
   * many failed logins from this client), or no answer from the platform. Null when it can be served.
   */
  get refusal(): Refusal | null {
    const message = this.problem ?? `The platform answered ${this.status}.`;
    if (this.status === 401) return { code: RpcCode.KeyRefused, status: 401, message };
    if (this.status === 429)
      return { code: RpcCode.TooManyRequests, status: 429, message, retryAfter: this.retryAfter };
    if (this.status >= 500) return { code: RpcCode.PlatformUnavailable, status: 503, message };
    return null;
  }

  /**
   * Serves MCP over a transport. Each request's params are checked first (-32602 with a one-line
   * reason), and an `initialize` of a key the platform refuses is answered with the refusal, so a
   * client learns why at once instead of seeing an empty tool list.
   */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const problem = invalidParams(message);
      if (problem && 'id' in message) {
        void transport.send(errorMessage(idOf(message), RpcCode.InvalidParams, problem));
        return;
      }
      if (!('method' in message) || message.method !== 'initialize' || !('id' in message)) {
        deliver?.(message, extra);
        return;
      }
      void this.admit().then((refusal) => {
        if (!refusal) deliver?.(message, extra);
        else
          void transport.send(
            errorMessage(idOf(message), refusal.code, refusal.message, refusalData(refusal)),
          );
      });
    };
  }

  /**
   * The answer to a call of a tool the key is not offered: why, as the platform says it or, when it
   * cannot be asked, as the capabilities show it (mcp-server/not-offered.ts).
   */
  private async notOffered(tool: ToolDefinition): Promise<CallToolResult> {
    const text =
      this.status === 200
        ? await this.probe(tool)
        : // The platform refused the key, or could not be asked: its answer is the reason.
          `${tool.name} is not offered to this key, so it was not called. ${this.problem ?? ''}`.trim();
    return { content: [{ type: 'text', text }], isError: true };
  }

  private async probe(tool: ToolDefinition): Promise<string> {
    const request = probeRequest(tool);
    const answer = request ? await this.options.backend.request(request) : undefined;
    return notOfferedMessage(tool, answer, this.capabilities, this.names, this.options.runner.tools);
  }

  /** The refusal of the key, asking the platform first unless the tool list is fresh. */
  private async admit(): Promise<Refusal | null> {
    if (Date.now() - this.fetchedAt > (this.options.refreshMs ?? 1000)) await this.refresh(false);
    return this.refusal;
  }

  get toolNames(): string[] {
    return this.names;
  }
}

/** What a refusal carries besides its sentence: the platform's HTTP status and, for 429, the wait. */
export const refusalData = (refusal: Refusal) => ({
  status: refusal.status,
  ...(refusal.retryAfter ? { retryAfter: refusal.retryAfter } : {}),
});
