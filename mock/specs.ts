// The bundled contracts the mock serves (generated/openapi/*.json, `npm run generate`).
import { readFileSync } from 'node:fs';
import { type ApiName, bundlePath } from '../lib/paths.ts';

export type Specs = Record<ApiName, Record<string, unknown>>;

let loaded: Specs | undefined;

/**
 * The three contracts, read once a process and frozen: every app made in it (a test makes hundreds)
 * shares them and the validators compiled from them (SpecSchemas.of), and nothing can change them.
 */
export function loadSpecs(): Specs {
  loaded ??= deepFreeze({
    v1: JSON.parse(readFileSync(bundlePath('v1'), 'utf8')),
    v2: JSON.parse(readFileSync(bundlePath('v2'), 'utf8')),
    admin: JSON.parse(readFileSync(bundlePath('admin'), 'utf8')),
  });
  return loaded;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
