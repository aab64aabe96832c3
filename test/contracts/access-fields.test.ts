// The access fields have one source: the tool files in mcp-schema/ (docs/adr-0005-access-fields-single-source.md).
// Each v2 operation a tool calls must carry the same `x-scope`, `x-permission`, `x-rules`, `x-licence`
// and `x-ai-quota` as that tool, because the mock's pipeline reads them from the operation while the
// capabilities filter and the docs read them from the tool (seed 000, Authentication and the tool tables).
import { describe, expect, it } from 'vitest';
import { loadTools, type ToolDefinition } from '../../lib/tool-schemas.ts';
import { loadBundle, operations, type Spec } from '../helpers.ts';

const ACCESS_FIELDS = ['x-scope', 'x-permission', 'x-rules', 'x-licence', 'x-ai-quota'] as const;

/** The access fields as the tool states them; an operation may leave `x-rules` out when it has none. */
const fromTool = (tool: ToolDefinition) => Object.fromEntries(ACCESS_FIELDS.map((f) => [f, tool[f]]));
const fromOperation = (op: Spec) =>
  Object.fromEntries(ACCESS_FIELDS.map((f) => [f, f === 'x-rules' ? (op[f] ?? []) : op[f]]));

const v2 = new Map(operations(loadBundle('v2')).map((o) => [o.operation.operationId as string, o.operation]));
const calls = loadTools().flatMap((tool) => tool['x-backend'].map((call) => ({ tool, call })));

describe('access fields: the tool files are the source, the v2 operations repeat them exactly', () => {
  it.each(calls.map(({ tool, call }) => [call.operationId, tool.name, tool] as const))(
    '%s carries the access fields of %s (fix the operation, not the tool)',
    (operationId, _name, tool) => {
      const op = v2.get(operationId);
      expect(op, operationId).toBeDefined();
      expect(fromOperation(op as Spec)).toEqual(fromTool(tool));
    },
  );

  it('every v2 operation no tool calls states all five fields itself (the capabilities endpoint)', () => {
    const called = new Set(calls.map(({ call }) => call.operationId));
    const uncalled = [...v2].filter(([id]) => !called.has(id));
    expect(uncalled.map(([id]) => id)).toEqual(['getCapabilities']);
    for (const [id, op] of uncalled) {
      for (const field of ACCESS_FIELDS.filter((f) => f !== 'x-rules'))
        expect(op, `${id} ${field}`).toHaveProperty(field);
    }
  });
});
