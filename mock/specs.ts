// The bundled contracts the mock serves, loaded once (generated/openapi/*.json, `npm run generate`).
import { readFileSync } from 'node:fs';
import { type ApiName, bundlePath } from '../lib/paths.ts';

export type Specs = Record<ApiName, Record<string, unknown>>;

export const loadSpecs = (): Specs => ({
  v1: JSON.parse(readFileSync(bundlePath('v1'), 'utf8')),
  v2: JSON.parse(readFileSync(bundlePath('v2'), 'utf8')),
  admin: JSON.parse(readFileSync(bundlePath('admin'), 'utf8')),
});
