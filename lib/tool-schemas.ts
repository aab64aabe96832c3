// Loads the MCP tool definitions of mcp-schema/ and compiles their JSON Schemas.
// Every part of the kit that needs a tool's schema comes through here, so they all read the same files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.ts';
import { TOOL_SCHEMA_DIR } from './paths.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.

export type ToolCategory = 'read' | 'write' | 'ai-generation' | 'ai-refinement';

export interface BackendArg {
  in: 'path' | 'query' | 'body' | 'multipart';
  name: string;
  wrap?: 'array';
  /** `file`: the value is a local path whose content is sent as the part. */
  as?: 'file';
}

export interface BackendCall {
  operationId: string;
  method: string;
  path: string;
  args: Record<string, BackendArg>;
  when?: string;
  each?: string;
  fromPrevious?: Record<string, string>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  outputSchema: Record<string, unknown>;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  'x-category': ToolCategory;
  'x-scope': 'read' | 'write';
  'x-permission': string | null;
  'x-rules': string[];
  'x-licence': { mcpAccess: 'read' | 'full'; mcpAiAccess: boolean };
  'x-ai-quota': boolean;
  /** The seed leaves open whether the quota counts this tool (mcp-schema/README.md). */
  'x-assumed-ai-quota'?: boolean;
  'x-backend': BackendCall[];
}

export interface ToolIndex {
  tools: { name: string; category: ToolCategory; file: string }[];
  absent: { name: string; reason: string }[];
}

export function loadToolIndex(dir = TOOL_SCHEMA_DIR): ToolIndex {
  return JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
}

/** The tool definitions the index lists, in index order, exactly as the files hold them. */
export function loadTools(dir = TOOL_SCHEMA_DIR): ToolDefinition[] {
  return loadToolIndex(dir).tools.map((t) => JSON.parse(readFileSync(join(dir, t.file), 'utf8')));
}

/** The names of the tools that exist, in index order: every count and list of tools reads this. */
export function toolNames(dir = TOOL_SCHEMA_DIR): string[] {
  return loadToolIndex(dir).tools.map((t) => t.name);
}

/**
 * The tools the seed announces but that have no backend and so are never offered (seed 000, What
 * the service does 5); `mcp-schema/index.json` lists them under `absent`.
 */
export function absentToolNames(dir = TOOL_SCHEMA_DIR): string[] {
  return loadToolIndex(dir).absent.map((t) => t.name);
}

/** A strict ajv for tool schemas (lib/ajv.ts). */
export const createToolAjv = (options: { useDefaults?: boolean } = {}): Ajv2020 => createAjv('tool', options);
