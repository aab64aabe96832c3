// `node --import tsx bench/user-search.ts [users]`: the cost of one user search whose query no
// answer cache has seen, from the chunked index, against testing every user's (already lower-cased)
// text one by one as the search did before; both in this process, one after the other, same queries.
import { VirtualClock } from '../mock/domain/clock.ts';
import { Platform } from '../mock/domain/platform.ts';
import { searchUsers } from '../mock/domain/search.ts';
import { userText } from '../mock/domain/user-search-index.ts';
import { START } from '../mock/seed/demo.ts';
import { loadSeed } from '../mock/seed/index.ts';
import { scaleTenant } from '../mock/seed/scale.ts';
import { median } from './stats.ts';

const users = Number(process.argv[2] ?? 200_000);
const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
platform.load({ now: START, tenants: [scaleTenant({ users, courses: 20, assignments: users })] }, true);
const tenant = platform.tenant('demo');
const queries = Array.from(
  { length: 41 },
  (_, i) => `${['weber', 'rossi', 'tanaka', 'costa'][i % 4]}${(i * 7919) % users}`,
);
searchUsers(tenant, 'warm-up', 20); // builds the index once
const texts = new Map([...tenant.users.values()].map((u) => [u.id, userText(u)]));
const timed = (search: (q: string) => void) =>
  median(
    queries.map((q) => {
      const t0 = performance.now();
      search(q);
      return performance.now() - t0;
    }),
  );
const rounds = [];
for (let round = 0; round < 5; round++)
  rounds.push({
    index: timed((q) => searchUsers(tenant, q, 20)),
    scan: timed((q) => {
      for (const u of tenant.users.values()) (texts.get(u.id) as string).includes(q);
    }),
  });
const index = median(rounds.map((r) => r.index));
const scan = median(rounds.map((r) => r.scan));
console.log(
  `${users} users, median of 5 rounds × 41 new queries: index ${index.toFixed(2)} ms, per-user scan ${scan.toFixed(2)} ms (${(scan / index).toFixed(1)}×)`,
);
