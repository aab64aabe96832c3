// The platform as a whole: its virtual clock, a reset to a seed, a snapshot imported.
import { CLOCK_MAX, clockTimeProblem, toIso } from '../clock.ts';
import { invalid } from '../errors.ts';
import type { CommandPlatform, Snapshot } from './command.ts';

export const STATE_COMMANDS = {
  // These move the clock itself: they answer the clock's new time, not the instant they started at.
  // The clock stops at its maximum (openapi/admin ClockTime): a move past it is refused, changing nothing.
  advanceClock: (p: CommandPlatform, a: { seconds: number }) => {
    const now = p.clock.now();
    if (now + a.seconds > CLOCK_MAX)
      throw invalid(
        `seconds: the clock would pass its maximum ${CLOCK_MAX} (${toIso(CLOCK_MAX)}); it is at ${now} (${toIso(now)}) and may advance by at most ${CLOCK_MAX - now} seconds`,
        { seconds: [`at most ${CLOCK_MAX - now}`] },
      );
    p.clock.advance(a.seconds);
    return p.clock.now();
  },

  setClock: (p: CommandPlatform, a: { now: number }) => {
    const problem = clockTimeProblem(a.now);
    if (problem) throw invalid(`now: ${problem}`, { now: [problem] });
    p.clock.set(a.now);
    return p.clock.now();
  },

  reset: (p: CommandPlatform, a: { seed: string }) => {
    p.load(p.seeds(a.seed));
    return p.clock.now();
  },

  /** Replaces the whole state with an exported one (admin API, `PUT /__admin/snapshot`). */
  importSnapshot: (p: CommandPlatform, a: { snapshot: Snapshot }) => {
    p.loadSnapshot(a.snapshot);
    return p.clock.now();
  },
};
