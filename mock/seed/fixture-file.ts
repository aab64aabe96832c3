// Fixtures from a file or from an object (`lmskit mock --fixtures FILE`, `startMock({ fixtures })`):
// read within a bound, parsed (JSON by its `.json` name, else YAML 1.2, with the `yaml` package),
// checked against the admin contract's `Fixture` schema — the same the contract router checks a
// `POST /__admin/fixtures` body against — then prepared and built (fixtures.ts). Every problem is
// one line naming the entry and the field, for a sentence at start or in startMock's Error.
import { readFileSync, statSync } from 'node:fs';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { countValues } from '../../lib/json-values.ts';
import { SpecSchemas } from '../../lib/openapi-schemas.ts';
import { DomainError } from '../domain/errors.ts';
import type { AiSettings, TenantData } from '../domain/model.ts';
import { DEFAULT_AI_SETTINGS } from '../domain/tenant-state.ts';
import { loadSpecs } from '../specs.ts';
import { buildFixture, type Fixture, type PreparedFixture, prepareFixture } from './fixtures.ts';

/** The largest fixtures file read: a thousand times the docs' example, far below what the schema's bounds allow. */
export const MAX_FIXTURE_FILE_BYTES = 4 * 2 ** 20;
/** The most values (objects, arrays, scalars) fixtures hold once expanded: a 4 MB file of JSON holds fewer. */
export const MAX_FIXTURE_VALUES = 500_000;

/** Fixtures that cannot be loaded: the message names the entry and the field, or the file's problem. */
export class FixtureProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureProblem';
  }
}

/** Validators of the admin contract's schemas: the ones the app checks `/__admin` bodies with. */
const schemas = (): SpecSchemas => SpecSchemas.of(loadSpecs().admin);

/** `/tenants/0/users/2/email` → `tenants[0].users[2].email`. */
const fieldOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s.replaceAll('~1', '/').replaceAll('~0', '~')}`))
    .join('')
    .replace(/^\./, '');

function describe(e: ErrorObject): string {
  const where = fieldOf(e.instancePath);
  const inside = (name: unknown) => (where ? `${where}.${String(name)}` : String(name));
  if (e.keyword === 'required') return `${inside(e.params.missingProperty)}: is required`;
  if (e.keyword === 'additionalProperties')
    return `${inside(e.params.additionalProperty)}: unknown field, not allowed here`;
  const what =
    e.keyword === 'enum'
      ? `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`
      : (e.message ?? 'is not valid');
  return `${where || 'the value'}: ${what}`;
}

/**
 * The problems of a value against a schema of the admin contract (`Fixture`, `UpdateAiSettingsRequest`),
 * one line each; where the value fits neither form of a `oneOf` (a course by id or by name), the
 * contract's sentence for it (`x-refusal`, lib/readable-errors.ts) alone, not one line per form.
 */
export function adminSchemaProblems(schema: string, value: unknown): string[] {
  const lines = schemas().errors(['components', 'schemas', schema], value).map(describe);
  return [...new Set(lines)];
}

/** The text of a fixtures file, within the bound; a FixtureProblem names what is wrong with the path. */
function readBounded(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new FixtureProblem(`${path} is not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof FixtureProblem) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new FixtureProblem(
      code === 'ENOENT' ? `${path}: no such file` : `${path} cannot be read (${code ?? 'error'})`,
    );
  }
  if (size > MAX_FIXTURE_FILE_BYTES)
    throw new FixtureProblem(
      `${path} has ${size} bytes; a fixtures file has at most ${MAX_FIXTURE_FILE_BYTES} (4 MB)`,
    );
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new FixtureProblem(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The value a fixtures file holds: JSON when its name ends in `.json`, else YAML. */
export function readFixtureFile(path: string): unknown {
  const text = readBounded(path);
  try {
    // YAML 1.2's core schema: a date stays a string, as the schema wants it; duplicate keys are refused.
    return path.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    const first = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw new FixtureProblem(
      `${path} is not ${path.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML'}: ${first}`,
    );
  }
}

/**
 * Fixtures given as a path or an object, checked, prepared and built: the fixtures as checked, the
 * state to load, and the prepared fixtures (what a `loadFixtures` command would carry). Throws a
 * FixtureProblem.
 */
export function fixturesFrom(
  source: string | Fixture,
  settings: { ai?: Partial<AiSettings> } = {},
): { fixture: Fixture; prepared: PreparedFixture; state: { now: number; tenants: TenantData[] } } {
  const value = typeof source === 'string' ? readFixtureFile(source) : source;
  // A file's problems name the file first: `fixtures.yaml: tenants[0].users[2].email: …`.
  const from = typeof source === 'string' ? `${source}: ` : '';
  // YAML's aliases (and an object's shared parts) repeat a part without its bytes: the bound is on
  // what the fixtures hold once expanded, as much as a 4 MB file of JSON could.
  if (countValues(value, MAX_FIXTURE_VALUES + 1) > MAX_FIXTURE_VALUES)
    throw new FixtureProblem(
      `${from}the fixtures hold more than ${MAX_FIXTURE_VALUES} values once their aliases are expanded; a fixture holds at most that many, as a 4 MB file of JSON could`,
    );
  const problems = adminSchemaProblems('Fixture', value);
  if (problems.length) throw new FixtureProblem(`${from}${problems.slice(0, 10).join('; ')}`);
  try {
    const fixture = value as Fixture;
    const prepared = prepareFixture(fixture, settings);
    return { fixture, prepared, state: buildFixture(prepared) };
  } catch (error) {
    if (error instanceof DomainError) throw new FixtureProblem(`${from}${error.message}`);
    throw error;
  }
}

/**
 * Why AI settings given for a whole run (startMock's `ai`, `lmskit mock --ai-seconds`) cannot be
 * taken — the bounds of `updateAiSettings`, and a shortest duration over the longest — or null.
 */
export function aiSettingsProblem(ai: unknown): string | null {
  const problems = adminSchemaProblems('UpdateAiSettingsRequest', ai);
  if (problems.length) return problems.join('; ');
  const { generationMinSeconds: min, generationMaxSeconds: max } = {
    ...DEFAULT_AI_SETTINGS,
    ...(ai as Partial<AiSettings>),
  };
  return min > max
    ? `generationMinSeconds (${min}) must not exceed generationMaxSeconds (${max}); they are ${DEFAULT_AI_SETTINGS.generationMinSeconds} and ${DEFAULT_AI_SETTINGS.generationMaxSeconds} unless given, so give both`
    : null;
}
