// What a command is given: the platform as the commands see it. The commands (one module per area
// beside this one) are typed on this interface, not on the `Platform` class of ../platform.ts, which
// assembles them into its registry and implements it; so the registry's modules never import the
// platform back. Also the shapes a command passes whole: a state to load, a snapshot, the seeds.
import type { VirtualClock } from '../clock.ts';
import type { TenantData } from '../model.ts';
import type { TenantState } from '../tenant-state.ts';

/** A whole platform state: where the clock is, and the tenants. */
export interface PlatformState {
  now: number;
  tenants: TenantData[];
}

export interface Snapshot {
  format: 'lmskit-state';
  version: 1;
  now: number;
  tenants: Record<string, TenantData>;
}

export type SeedLoader = (name: string) => PlatformState;

/** The platform as a command uses it (`Platform` in ../platform.ts). */
export interface CommandPlatform {
  readonly clock: VirtualClock;
  /** The seeds a reset loads, with the run's settings applied to their tenants. */
  readonly seeds: SeedLoader;
  /** The instant the command runs at, which its replay sees too. */
  now(): number;
  /** The tenant of that id; throws NOT_FOUND otherwise. */
  tenant(id: string): TenantState;
  /** Adds a tenant beside the others; its id and site API key must be new (TENANT_EXISTS). */
  addTenant(tenant: TenantState): TenantState;
  /** Generation jobs were made, settled or replaced. */
  jobsChanged(): void;
  /** Replaces the whole state (copied unless `adopt`). */
  load(state: PlatformState, adopt?: boolean): void;
  /** Checks the outline of a snapshot and loads it. */
  loadSnapshot(snapshot: Snapshot): void;
}
