// The seeds a platform can start from (`--seed`, `POST /__admin/reset`). Each is deterministic.
import type { TenantData } from '../domain/model.ts';
import { demoTenant, emptyTenant, START } from './demo.ts';

export const SEEDS: Record<string, () => TenantData[]> = {
  demo: () => [demoTenant()],
  empty: () => [emptyTenant()],
};

export function loadSeed(name: string): { now: number; tenants: TenantData[] } {
  const seed = SEEDS[name];
  if (!seed) throw new Error(`unknown seed ${name}; known: ${Object.keys(SEEDS).join(', ')}`);
  return { now: START, tenants: seed() };
}
