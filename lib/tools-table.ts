// The table of tools in mcp-schema/README.md, made from the tool files by `npm run generate`, so a
// new tool file is listed there with nothing written by hand (test/contracts/generated.test.ts).
import { withMarkedBlock } from './marked-block.ts';
import type { BackendCall, ToolDefinition } from './tool-schemas.ts';

const call = (c: BackendCall) =>
  `\`${c.operationId}\` ${c.method} \`${c.path}\`${c.when ? ` (if ${c.when})` : ''}${c.each ? ` (per ${c.each} item)` : ''}`;

/** One row per tool: category, scope, permission and rules, backend calls. */
export function toolsTableMarkdown(tools: ToolDefinition[]): string {
  const rows = tools.map((t) => {
    const scope = `${t['x-scope']}${t['x-assumed-scope'] ? ' (assumed)' : ''}`;
    const permission = t['x-permission'] ? `\`${t['x-permission']}\`` : '—';
    const rules = t['x-rules'].map((r) => ` + ${r}`).join('');
    return `| \`${t.name}\` | ${t['x-category']} | ${scope} | ${permission}${rules} | ${t['x-backend'].map(call).join(' / ')} |`;
  });
  return [
    '| tool | category | scope | permission (+ rules) | backend call |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const BEGIN = '<!-- tools:begin (npm run generate writes this table from the tool files) -->';
const END = '<!-- tools:end -->';

/** mcp-schema/README.md with the table between its markers made anew. */
export const withToolsTable = (doc: string, tools: ToolDefinition[]): string =>
  withMarkedBlock(doc, 'mcp-schema/README.md', BEGIN, END, toolsTableMarkdown(tools));
