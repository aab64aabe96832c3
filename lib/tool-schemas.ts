// Loads the MCP tool definitions of mcp-schema/ and compiles their JSON Schemas.
// Every part of the kit that needs a tool's schema comes through here, so they all read the same files.
import { readdirSync, readFileSync } from 'node:fs';
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
  /** The seed does not state the scope (mcp-schema/README.md). */
  'x-assumed-scope'?: boolean;
  'x-permission': string | null;
  'x-rules': string[];
  'x-licence': { mcpAccess: 'read' | 'full'; mcpAiAccess: boolean };
  'x-ai-quota': boolean;
  /** The seed leaves open whether the quota counts this tool (mcp-schema/README.md). */
  'x-assumed-ai-quota'?: boolean;
  /** A tool seed 000 does not name (mcp-schema/README.md). */
  'x-assumed'?: boolean;
  'x-backend': BackendCall[];
}

/** The order tools are listed in: by category as seed 000 lists them, then by name. */
export const TOOL_CATEGORIES: readonly ToolCategory[] = ['read', 'write', 'ai-generation', 'ai-refinement'];

/** The file of the tools the seed announces but that do not exist (no file of their own). */
export const ABSENT_TOOLS_FILE = 'absent.json';

/** The names of the tool files of `dir`: every `<name>.json` but the absent tools' list. */
export const toolFiles = (dir = TOOL_SCHEMA_DIR): string[] =>
  readdirSync(dir).filter((f) => f.endsWith('.json') && f !== ABSENT_TOOLS_FILE);

/**
 * The tool definitions, exactly as the files hold them: one file per tool is the only place a tool
 * is written, and every list and count of tools reads this (docs/architecture.md, How to add a tool).
 */
export function loadTools(dir = TOOL_SCHEMA_DIR): ToolDefinition[] {
  const tools = toolFiles(dir).map(
    (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ToolDefinition,
  );
  const rank = (t: ToolDefinition) => TOOL_CATEGORIES.indexOf(t['x-category']);
  return tools.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The names of the tools that exist, in listing order. */
export function toolNames(dir = TOOL_SCHEMA_DIR): string[] {
  return loadTools(dir).map((t) => t.name);
}

/** The names of the tools of one category, in listing order. */
export function toolNamesOf(category: ToolCategory, dir = TOOL_SCHEMA_DIR): string[] {
  return loadTools(dir)
    .filter((t) => t['x-category'] === category)
    .map((t) => t.name);
}

/**
 * The tools the seed announces but that have no backend and so are never offered (seed 000, What
 * the service does 5), each with the reason: `mcp-schema/absent.json`.
 */
export function absentTools(dir = TOOL_SCHEMA_DIR): { name: string; reason: string }[] {
  return JSON.parse(readFileSync(join(dir, ABSENT_TOOLS_FILE), 'utf8')).absent;
}

export const absentToolNames = (dir = TOOL_SCHEMA_DIR): string[] => absentTools(dir).map((t) => t.name);

/** A strict ajv for tool schemas (lib/ajv.ts). */
export const createToolAjv = (options: { useDefaults?: boolean } = {}): Ajv2020 => createAjv('tool', options);
