// The tool catalogue (mcp-schema/) as the checks use it: the tools by scope and licence, and the two
// tools seed 000 announces that do not exist.
import { absentToolNames, loadTools, type ToolDefinition } from '../../../lib/tool-schemas.ts';

export const TOOLS = loadTools();

export const toolNamed = (name: string) => TOOLS.find((t) => t.name === name) as ToolDefinition;

/** Tools of the read scope. */
export const READ_TOOLS = TOOLS.filter((t) => t['x-scope'] === 'read').map((t) => t.name);

/** Tools of the write scope: the seven write tools and the AI tools. */
export const WRITE_TOOLS = TOOLS.filter((t) => t['x-scope'] === 'write').map((t) => t.name);

/** The AI tools (seed 000: they need mcpAccess full and mcpAiAccess true). */
export const AI_TOOLS = TOOLS.filter((t) => t['x-licence'].mcpAiAccess).map((t) => t.name);

/** Announced by the seed, absent from the platform (mcp-schema/absent.json). */
export const ABSENT = absentToolNames();
