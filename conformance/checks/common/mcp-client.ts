// A client of the MCP tool server at --mcp-url (the MCP SDK over streamable HTTP), connected with one
// key, and the readings of what a tool call answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Context } from '../../context.ts';

export type Listed = Awaited<ReturnType<Client['listTools']>>['tools'];
export type Called = Awaited<ReturnType<Client['callTool']>>;

/**
 * The SDK's client compiles each tool's output schema at every `tools/list` (ajv keeps a compiled
 * schema by object, and each list is new JSON), and keeps every one: a run opens a client per key and
 * lists often. One validator per schema text serves every client of the process instead.
 */
class OutputValidators implements jsonSchemaValidator {
  private ajv = new AjvJsonSchemaValidator();
  private readonly byText = new Map<string, JsonSchemaValidator<unknown>>();
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const text = JSON.stringify(schema);
    let validator = this.byText.get(text);
    if (!validator) {
      // A deployment whose schemas change at every list cannot grow this without bound.
      if (this.byText.size >= 1000) {
        this.byText.clear();
        this.ajv = new AjvJsonSchemaValidator();
      }
      validator = this.ajv.getValidator(schema);
      this.byText.set(text, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}
const OUTPUT_VALIDATORS = new OutputValidators();

/** A client of the tool server, connected with the key; the caller closes it. */
export async function connect(ctx: Context, key: string): Promise<Client> {
  const client = new Client(
    { name: 'lmskit-conformance', version: '1' },
    { jsonSchemaValidator: OUTPUT_VALIDATORS },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ctx.config.mcpUrl as string), {
      requestInit: { headers: { 'X-MCP-Key': key } },
    }),
  );
  return client;
}

/** Runs `use` with a client for the key, closed afterwards. */
export async function withClient<T>(
  ctx: Context,
  key: string,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await connect(ctx, key);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** A tool call that may fail as a protocol error: the error, or the result. */
export const callOrError = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }).catch((e: Error) => e);

/** Refused: a protocol error, or a result with isError. */
export const refused = (r: Called | Error): boolean => r instanceof Error || r.isError === true;

/** What a result says, for a reason. */
export const textOf = (result: Called) => JSON.stringify(result.content ?? '').slice(0, 300);

/** What a refusal says, for a reason: the protocol error's message or the result's text. */
export const refusalOf = (r: Called | Error) => (r instanceof Error ? r.message : textOf(r));
