// Fixtures loaded in place of the whole state (admin API `loadFixtures`; docs/mock.md, Fixtures). The
// command is given the fixtures as prepareFixture leaves them — passwords and keys as hashes, the
// run's AI settings resolved — so its command-log line holds no secret and replays to the same state.
import { buildFixture, type PreparedFixture } from '../../seed/fixtures.ts';
import type { Platform } from '../platform.ts';

export const FIXTURE_COMMANDS = {
  loadFixtures: (p: Platform, a: { fixtures: PreparedFixture }) => {
    // Built before anything is replaced: fixtures a rule refuses leave the state as it was.
    p.load(buildFixture(a.fixtures), true);
    return p.clock.now();
  },
};
