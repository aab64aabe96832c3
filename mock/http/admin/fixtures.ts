// `POST /__admin/fixtures` (loadFixtures; docs/mock.md, Fixtures): the fixtures, whose shape the
// contract router has checked, are prepared — checked for what a schema cannot say, secrets hashed,
// the run's AI settings resolved — and loaded by one logged command (the state file's command log).
import type { PathOperations } from '../../../generated/admin.ts';
import type { Platform } from '../../domain/platform.ts';
import { prepareFixture } from '../../seed/fixtures.ts';
import type { Handlers } from '../typed-handlers.ts';

export function fixtureHandlers(platform: Platform): Pick<Handlers<PathOperations>, 'loadFixtures'> {
  return {
    loadFixtures: (_req, _res, { body }) => {
      const now = platform.run('loadFixtures', {
        fixtures: prepareFixture(body, platform.settings),
      });
      return { status: 200, body: { now, tenants: [...platform.tenants.keys()] } };
    },
  };
}
