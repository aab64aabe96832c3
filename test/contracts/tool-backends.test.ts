// Contract test (b): each tool's backend call exists in openapi/v2 and each tool parameter lands on
// a parameter or body field of that operation (seed 000, tool tables, "Backend call" column).
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../lib/spec-walk.ts';
import { createToolAjv, loadTools, type ToolDefinition } from '../../lib/tool-schemas.ts';
import { loadBundle, operations, type Spec } from '../helpers.ts';

const v2 = loadBundle('v2');
const ops = new Map(operations(v2).map((o) => [o.operation.operationId as string, o]));

const deref = (node: Spec | undefined) => resolveRef(v2, node);

/** Top-level property names a body schema accepts, looking through allOf/anyOf/oneOf. */
function bodyProperties(schema: Spec | undefined): Spec {
  const s = deref(schema);
  if (!s) return {};
  const nested = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].map(bodyProperties);
  return Object.assign({}, ...nested, s.properties ?? {});
}

type Operation = NonNullable<ReturnType<typeof ops.get>>;

function targetExists({ operation: op, parameters }: Operation, where: string, name: string): boolean {
  if (where === 'path' || where === 'query') {
    return parameters.map(deref).some((p) => p?.in === where && p.name === name);
  }
  const media = where === 'multipart' ? 'multipart/form-data' : 'application/json';
  let props = bodyProperties(deref(op.requestBody)?.content?.[media]?.schema);
  const parts = name.split('.');
  for (const [i, part] of parts.entries()) {
    if (!(part in props)) return false;
    if (i < parts.length - 1) props = bodyProperties(props[part]);
  }
  return true;
}

const successResponse = (op: Spec) => {
  const code = Object.keys(op.responses).find((c) => c.startsWith('2')) as string;
  return { code, content: deref(op.responses[code])?.content?.['application/json'] as Spec | undefined };
};

describe('tool → backend mapping (seed 000 tool tables)', () => {
  const tools = loadTools();

  it.each(tools.map((t) => [t.name, t] as const))(
    '%s calls v2 operations that exist, by method and path',
    (_n, tool) => {
      for (const call of tool['x-backend']) {
        const op = ops.get(call.operationId);
        expect(op, call.operationId).toBeDefined();
        expect(`${op?.method.toUpperCase()} ${op?.path}`).toBe(`${call.method} ${call.path}`);
      }
    },
  );

  it.each(tools.map((t) => [t.name, t] as const))(
    '%s maps every parameter onto its operation',
    (_n, tool: ToolDefinition) => {
      const mapped = new Set<string>();
      for (const call of tool['x-backend']) {
        const op = ops.get(call.operationId) as Operation;
        for (const [param, arg] of Object.entries(call.args)) {
          expect(
            targetExists(op, arg.in, arg.name),
            `${param} → ${arg.in} ${arg.name} of ${call.operationId}`,
          ).toBe(true);
          mapped.add(param);
        }
        for (const wire of Object.keys(call.fromPrevious ?? {})) {
          expect(
            targetExists(op, 'body', wire) || targetExists(op, 'path', wire),
            `${wire} of ${call.operationId}`,
          ).toBe(true);
        }
      }
      expect([...mapped].sort()).toEqual(Object.keys(tool.inputSchema.properties ?? {}).sort());
    },
  );

  it("the seed's shared limits hold in the tool schemas: find_* 20/50, leaderboard 10/50, audit log 50/250", () => {
    const limit = (name: string) => tools.find((t) => t.name === name)?.inputSchema.properties?.limit;
    expect(limit('find_user')).toMatchObject({ default: 20, maximum: 50 });
    expect(limit('find_course')).toMatchObject({ default: 20, maximum: 50 });
    expect(limit('get_leaderboard')).toMatchObject({ default: 10, maximum: 50 });
    expect(limit('get_audit_log')).toMatchObject({ default: 50, maximum: 250 });
  });

  it('v2 bounds agree with the tool bounds for every mapped query parameter', () => {
    for (const tool of tools) {
      for (const call of tool['x-backend']) {
        const { parameters } = ops.get(call.operationId) as Operation;
        for (const [param, arg] of Object.entries(call.args).filter(([, a]) => a.in === 'query')) {
          const backend = deref(parameters.map(deref).find((p) => p?.name === arg.name)?.schema) as Spec;
          const own = tool.inputSchema.properties?.[param] as Spec;
          for (const bound of ['default', 'minimum', 'maximum', 'enum'] as const) {
            expect(backend[bound], `${tool.name}.${param} ${bound}`).toEqual(own[bound]);
          }
        }
      }
    }
  });

  it('v2 string bounds agree with the tool bounds for every mapped parameter and body field', () => {
    /** The schema a tool argument lands on: a path or query parameter, or a (nested) body or multipart field. */
    const target = (
      { operation: op, parameters }: Operation,
      where: string,
      name: string,
    ): Spec | undefined => {
      if (where === 'path' || where === 'query')
        return deref(parameters.map(deref).find((p) => p?.in === where && p.name === name)?.schema);
      const media = where === 'multipart' ? 'multipart/form-data' : 'application/json';
      let schema = deref(deref(op.requestBody)?.content?.[media]?.schema);
      for (const part of name.split('.')) {
        // A `$ref`'s siblings bound it too (OpenAPI 3.1): `email` is an EmailAddress of at most 254.
        const { $ref: _, ...siblings } = bodyProperties(schema)[part] ?? {};
        schema = { ...deref(bodyProperties(schema)[part]), ...siblings };
      }
      return schema;
    };
    let checked = 0;
    for (const tool of tools) {
      for (const call of tool['x-backend']) {
        for (const [param, arg] of Object.entries(call.args)) {
          const own = tool.inputSchema.properties?.[param] as Spec;
          if (own.type !== 'string' || arg.as === 'file') continue;
          const backend = target(ops.get(call.operationId) as Operation, arg.in, arg.name) as Spec;
          expect(backend.maxLength, `${tool.name}.${param} maxLength`).toEqual(own.maxLength);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it("each single-call tool's outputSchema accepts its backend's documented success examples", () => {
    const ajv = createToolAjv();
    let checked = 0;
    for (const tool of tools.filter((t) => t['x-backend'].length === 1 && !t['x-backend'][0]?.each)) {
      const call = tool['x-backend'][0] as ToolDefinition['x-backend'][number];
      const { content } = successResponse(ops.get(call.operationId)?.operation as Spec);
      const validate = ajv.compile(tool.outputSchema);
      for (const example of Object.values(content?.examples ?? {}) as Spec[]) {
        validate(deref(example)?.value);
        expect(validate.errors ?? [], `${tool.name} ← ${call.operationId}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});
