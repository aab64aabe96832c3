// The platform as a whole: its virtual clock, a reset to a seed, a snapshot imported.
import type { Platform, Snapshot } from '../platform.ts';

export const STATE_COMMANDS = {
  // These move the clock itself: they answer the clock's new time, not the instant they started at.
  advanceClock: (p: Platform, a: { seconds: number }) => {
    p.clock.advance(a.seconds);
    return p.clock.now();
  },

  setClock: (p: Platform, a: { now: number }) => {
    p.clock.set(a.now);
    return p.clock.now();
  },

  reset: (p: Platform, a: { seed: string }) => {
    p.load(p.seeds(a.seed));
    return p.clock.now();
  },

  /** Replaces the whole state with an exported one (admin API, `PUT /__admin/snapshot`). */
  importSnapshot: (p: Platform, a: { snapshot: Snapshot }) => {
    p.loadSnapshot(a.snapshot);
    return p.clock.now();
  },
};
