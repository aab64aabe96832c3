// The checks behind `npm run lint`: Redocly on the three APIs, strict ajv on every tool schema,
// Biome and the TypeScript compiler on the code. Each returns the problems it found; none means clean.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { API_NAMES, ROOT } from './paths.ts';
import { lintApi } from './redocly.ts';
import { createToolAjv, loadTools, TOOL_CATEGORIES, toolFiles } from './tool-schemas.ts';

const run = promisify(execFile);
/** A package's own file, by its folder: some packages export no subpath but their package.json. */
const resolveBin = (pkg: string, bin: string) =>
  join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), bin);

export async function lintSpecs(): Promise<string[]> {
  const problems = (await Promise.all(API_NAMES.map(lintApi))).flat();
  return problems.map((p) => `${p.api}: ${p.severity} ${p.ruleId}: ${p.message} (${p.where})`);
}

export function lintToolSchemas(): string[] {
  const problems: string[] = [];
  const ajv = createToolAjv();
  const tools = loadTools();
  for (const file of toolFiles()) {
    const tool = tools.find((t) => `${t.name}.json` === file);
    if (!tool) problems.push(`mcp-schema/${file}: its "name" is not the file's name (${file.slice(0, -5)})`);
    else if (!TOOL_CATEGORIES.includes(tool['x-category']))
      problems.push(`mcp-schema/${file}: x-category must be one of ${TOOL_CATEGORIES.join(', ')}`);
  }
  for (const tool of tools) {
    for (const part of ['inputSchema', 'outputSchema'] as const) {
      try {
        ajv.compile(tool[part]);
      } catch (error) {
        problems.push(`${tool.name}.${part}: ${(error as Error).message}`);
      }
      if (tool[part].type !== 'object')
        problems.push(`${tool.name}.${part}: MCP needs type "object" at the top`);
      for (const where of booleanSubschemas(tool[part], part))
        problems.push(
          `${tool.name}.${where}: a bare true/false subschema; strict clients want a schema object`,
        );
    }
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (schema.type === 'string' && !schema.enum && schema.maxLength === undefined)
        problems.push(`${tool.name}.inputSchema.properties.${name}: a string parameter needs a maxLength`);
    }
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      if (typeof tool.annotations?.[hint] !== 'boolean')
        problems.push(`${tool.name}: annotations.${hint} is not set`);
    }
  }
  return problems;
}

/** Paths of `true`/`false` used as a schema (strict MCP clients such as the Inspector's --strict reject them). */
function booleanSubschemas(node: unknown, path: string): string[] {
  if (typeof node === 'boolean') return [path];
  if (!node || typeof node !== 'object') return [];
  // Keywords whose values are schemas, or maps and lists of schemas; other keywords hold plain data.
  const schemaMaps = ['properties', 'patternProperties', '$defs'];
  const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
  const schemaValues = ['items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => {
    if (schemaMaps.includes(key) && value && typeof value === 'object')
      return Object.entries(value).flatMap(([k, v]) => booleanSubschemas(v, `${path}.${key}.${k}`));
    if (schemaLists.includes(key) && Array.isArray(value))
      return value.flatMap((v, i) => booleanSubschemas(v, `${path}.${key}[${i}]`));
    if (schemaValues.includes(key)) return booleanSubschemas(value, `${path}.${key}`);
    // `additionalProperties: false` is the usual way to close an object; only a schema there is walked.
    if (key === 'additionalProperties' && typeof value === 'object')
      return booleanSubschemas(value, `${path}.${key}`);
    return [];
  });
}

async function command(file: string, args: string[]): Promise<string[]> {
  try {
    await run(process.execPath, [file, ...args], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 });
    return [];
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return [`${e.stdout ?? ''}${e.stderr ?? ''}`.trim()];
  }
}

/**
 * Biome, TypeScript 5.9 (the judge: openapi-typescript needs 5) and TypeScript 7's native checker
 * (`npm run typecheck`, the developer's loop in seconds), which must agree that the code is clean.
 * `npm test` runs Biome and the native checker only: tsc 5.9 takes 45 s of a 2-core machine where the
 * native checker takes 5, and CI runs `npm run lint`, which holds the two to agree.
 */
export async function lintCode({ tsc5 = true } = {}): Promise<string[]> {
  const [biome, tsc, tsgo] = await Promise.all([
    command(resolveBin('@biomejs/biome', 'bin/biome'), ['check', '--error-on-warnings', '.']),
    tsc5 ? command(resolveBin('typescript', 'bin/tsc'), ['--noEmit', '-p', 'tsconfig.json']) : [],
    command(resolveBin('@typescript/native-preview', 'bin/tsgo'), TSGO_ARGS),
  ]);
  return [
    ...biome.map((p) => `biome: ${p}`),
    ...tsc.map((p) => `tsc: ${p}`),
    ...tsgo.map((p) => `tsgo: ${p}`),
  ];
}

/** tsgo keeps its incremental state apart from tsc's (tsconfig.json `tsBuildInfoFile`): the formats differ. */
const TSGO_ARGS = [
  '--noEmit',
  '-p',
  'tsconfig.json',
  '--tsBuildInfoFile',
  'node_modules/.cache/lmskit/tsgo.tsbuildinfo',
];
