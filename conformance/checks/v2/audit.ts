// The audit log through v2 (seed 000, Read tools > get_audit_log, Limits): as documented within a
// YYYY-MM-DD window; its filters (fields[author], fields[createdAt][from|to]) keep only what they
// name; it pages by limit and offset, newest first; its limit has a default and a maximum.
// Read-only; an empty audit log (a run without --allow-writes on a fresh deployment) leaves the
// filter checks incomplete.
import { evidenceOf, fail, pass } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { Incomplete } from '../../outcomes.ts';
import type { Check } from '../../types.ts';
import { UNKNOWN_ID } from '../common/discover.ts';
import { readAssumed } from '../common/judge.ts';
import { area, call, needs, pageLimitChecks, read } from './read.ts';

type Entry = { id: number; createdAt: number; author: { id: number } | null };
const entriesOf = (e: Exchange) =>
  readAssumed(e, 'the audit entries', (b: { entries?: Entry[] }) => b.entries);

export const v2AuditChecks: Check[] = [
  read(
    'v2.audit.contract',
    'audit',
    'listAuditLog',
    ['000/audit.window', '000/audit.date-format', '000/capabilities.filtered'],
    'the audit log, filtered by a YYYY-MM-DD window, answers as documented',
    async () => ({
      query: { 'fields[createdAt][from]': '2000-01-01', 'fields[createdAt][to]': '2100-12-31' },
    }),
  ),
  {
    id: 'v2.audit.filter-author',
    area: area('audit'),
    level: 'MUST',
    rules: ['000/audit.filters'],
    title: "fields[author] keeps only that author's entries (none for a user who never acted)",
    needs,
    run: async (ctx) => {
      const all = await call(ctx, 'listAuditLog', {});
      const entries = entriesOf(all);
      if (!entries.length)
        throw new Incomplete('the audit log is empty: run with --allow-writes to give it entries');
      const none = await call(ctx, 'listAuditLog', { query: { 'fields[author]': UNKNOWN_ID } });
      if (entriesOf(none).length)
        return fail(
          `fields[author]=${UNKNOWN_ID}, an id no user has, still lists entries`,
          evidenceOf(none, 'no entries'),
        );
      const author = entries.find((x) => x.author)?.author?.id;
      if (author === undefined) return pass();
      const theirs = await call(ctx, 'listAuditLog', { query: { 'fields[author]': author } });
      const got = entriesOf(theirs);
      const odd = got.filter((x) => x.author?.id !== author);
      return got.length && !odd.length
        ? pass()
        : fail(
            `fields[author]=${author} lists ${got.length} entries, ${odd.length} by someone else`,
            evidenceOf(theirs, `only entries by ${author}, at least one`),
          );
    },
  },
  {
    id: 'v2.audit.filter-window',
    area: area('audit'),
    level: 'MUST',
    rules: ['000/audit.window', '000/audit.date-format'],
    title: 'fields[createdAt][from|to] keep only entries in the window (ISO date or YYYY-MM-DD)',
    needs,
    run: async (ctx) => {
      const all = await call(ctx, 'listAuditLog', {});
      if (!entriesOf(all).length)
        throw new Incomplete('the audit log is empty: run with --allow-writes to give it entries');
      const before = await call(ctx, 'listAuditLog', { query: { 'fields[createdAt][to]': '1990-01-01' } });
      if (entriesOf(before).length)
        return fail('a window ending 1990-01-01 still lists entries', evidenceOf(before, 'no entries'));
      const after = await call(ctx, 'listAuditLog', {
        query: { 'fields[createdAt][from]': '2100-01-01T00:00:00Z' },
      });
      if (entriesOf(after).length)
        return fail(
          'a window starting 2100-01-01T00:00:00Z still lists entries',
          evidenceOf(after, 'no entries'),
        );
      const around = await call(ctx, 'listAuditLog', {
        query: { 'fields[createdAt][from]': '2000-01-01', 'fields[createdAt][to]': '2100-12-31' },
      });
      return entriesOf(around).length
        ? pass()
        : fail('a window from 2000 to 2100 lists no entries', evidenceOf(around, 'the entries'));
    },
  },
  {
    id: 'v2.audit.paging',
    area: area('audit'),
    level: 'SHOULD',
    rules: ['000/audit.offset'],
    assumption:
      'the audit log pages by `limit` and `offset`, newest first (the seed names them <limit> and <offset>)',
    title: 'the audit log pages by limit and offset without overlap, newest first',
    needs,
    run: async (ctx) => {
      const first = await call(ctx, 'listAuditLog', { query: { limit: 2, offset: 0 } });
      const second = await call(ctx, 'listAuditLog', { query: { limit: 2, offset: 2 } });
      const [a, b] = [entriesOf(first), entriesOf(second)];
      if (a.length > 2 || b.some((x) => a.some((y) => y.id === x.id)))
        return fail(
          'offset 2 repeats entries of offset 0, or limit 2 gives more',
          evidenceOf(second, 'the next entries'),
        );
      const times = [...a, ...b].map((x) => x.createdAt);
      return times.every((t, i) => i === 0 || t <= (times[i - 1] as number))
        ? pass()
        : fail('the entries are not newest first', evidenceOf(first, 'createdAt not increasing'));
    },
  },
  ...pageLimitChecks(
    'v2.audit',
    'audit',
    'listAuditLog',
    '000/limits.audit',
    entriesOf,
    250,
    50,
    {},
    'the wire name of the audit log limit is `limit` (the seed says <limit>)',
  ),
];
