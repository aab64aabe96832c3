// Fixtures loaded in place of the whole state (admin API `loadFixtures`; docs/mock.md, Fixtures). The
// command is given the fixtures as prepareFixture (../../seed/fixtures.ts) leaves them — passwords and
// keys as hashes, the run's AI settings resolved — so its command-log line holds no secret and replays
// to the same state. The build is the domain's (../fixture-build.ts): the domain imports no seed.
import { buildFixture, type PreparedFixture } from '../fixture-build.ts';
import type { CommandPlatform } from './command.ts';

export const FIXTURE_COMMANDS = {
  loadFixtures: (p: CommandPlatform, a: { fixtures: PreparedFixture }) => {
    // Built before anything is replaced: fixtures a rule refuses leave the state as it was.
    p.load(buildFixture(a.fixtures), true);
    return p.clock.now();
  },
};
