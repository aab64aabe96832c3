// The terminal's story of a run: a line per check as it runs; then each failure with the
// requirement, what was expected and received, and a curl line; a table by area; and the outcome
// last, where the eye lands: green when every MUST ran and passed, red when one failed, amber when
// some did not run — with why, and the flag that would run them.
import { causes, outcomeOf, type RunReport, spentText, unrun } from '../runner.ts';
import type { Result, Status } from '../types.ts';

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', skip: '-', incomplete: '?' };
const COLOR = { red: 31, green: 32, amber: 33, dim: 2 } as const;

export type Paint = (color: keyof typeof COLOR, text: string) => string;
export const ansi: Paint = (color, text) => `\x1b[${COLOR[color]}m${text}\x1b[0m`;
export const plain: Paint = (_color, text) => text;

export function progressLine(r: Result, paint: Paint = plain): string {
  const head = `${MARK[r.status]} ${r.level.padEnd(6)} ${r.id}`;
  if (r.status === 'pass') return head;
  const color = r.status === 'fail' ? (r.level === 'MUST' ? 'red' : 'amber') : 'dim';
  return paint(color, `${head} — ${r.reason ?? ''}`);
}

/** A failure as the terminal shows it: the HTML report's evidence, in lines; a cause with what it blocks. */
export function failureText(r: Result, blocks: string[] = [], baseline?: 'new' | 'known'): string {
  const e = r.evidence ?? {};
  const mark =
    baseline === 'new'
      ? ' (new: not in the baseline)'
      : baseline === 'known'
        ? ' (known: in the baseline)'
        : '';
  return [
    `✗ [${r.level}] ${r.id}${mark} — ${r.title}`,
    blocks.length
      ? `  blocks:      ${blocks.length} more check(s) that need what it makes or finds: ${blocks.join(', ')}`
      : '',
    `  requirement: ${r.source}`,
    `  why:         ${r.reason ?? ''}`,
    e.expected ? `  expected:    ${e.expected}` : '',
    e.received ? `  received:    ${e.received.replace(/\s+/g, ' ').slice(0, 400)}` : '',
    ...(e.schemaErrors ?? []).slice(0, 5).map((s) => `  schema:      ${s}`),
    e.curl ? `  reproduce:   ${e.curl}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** How the run compares with its baseline (`--baseline`), in lines; none without one. */
export function baselineText(report: RunReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  const list = (ids: string[]) => (ids.length ? `: ${ids.join(', ')}` : '');
  return [
    `Baseline ${b.source} (${b.listed} check(s) expected to fail)`,
    `  newly failing, not in the baseline: ${b.newFailures.length}${list(b.newFailures)}`,
    `  known, in the baseline and still failing: ${b.known.length}${list(b.known)}`,
    `  fixed, in the baseline and now passing (take them out of it): ${b.fixed.length}${list(b.fixed)}`,
    ...(b.unjudged.length
      ? [`  in the baseline, not judged in this run: ${b.unjudged.length}${list(b.unjudged)}`]
      : []),
  ];
}

/** The outcome in one or more lines: what a CI log reader must see. */
export function banner(report: RunReport, paint: Paint = plain): string {
  const must = report.results.filter((r) => r.level === 'MUST' && !r.optIn);
  const n = (s: Status) => must.filter((r) => r.status === s).length;
  const optIns = unrun(report, true);
  const notOptedIn = optIns.length
    ? [
        paint(
          'dim',
          // A role declared without keys (`--role-key ROLE=none`) is listed here too: not judged, by choice.
          `  not opted in: ${optIns.reduce((sum, g) => sum + g.ids.length, 0)} MUST requirement(s) that need a flag, or do not apply:`,
        ),
        ...optIns.map((g) => paint('dim', `  ${String(g.ids.length).padStart(3)} × ${g.reason}`)),
      ]
    : [];
  const b = report.baseline;
  const fixed = b?.fixed.length ? [paint('green', `  fixed since the baseline: ${b.fixed.join(', ')}`)] : [];
  switch (outcomeOf(report)) {
    case 'passed':
      return [
        b?.known.length
          ? paint(
              'green',
              `PASSED against the baseline — no new MUST failure; ${b.known.length} known failure(s) it lists still fail: ${b.known.join(', ')}.`,
            )
          : paint('green', `PASSED — every MUST requirement ran and passed (${n('pass')}).`),
        ...fixed,
        ...notOptedIn,
      ].join('\n');
    case 'failed': {
      const causing = causes(report);
      return [
        b
          ? paint(
              'red',
              `FAILED — ${b.newFailures.length} MUST requirement(s) newly failing, not in the baseline: ${b.newFailures.join(', ')}${b.known.length ? ` (and ${b.known.length} known)` : ''}.`,
            )
          : paint(
              'red',
              `FAILED — ${n('fail')} MUST requirement(s) failed${n('skip') + n('incomplete') ? `; ${n('skip') + n('incomplete')} did not run` : ''}.`,
            ),
        ...fixed,
        ...causing.map((c) =>
          paint(
            'red',
            `  cause: ${c.id} failed, and ${c.blocks.length} check(s) that need it are blocked by it`,
          ),
        ),
        ...unrun(report).map((g) => paint('amber', `  ${String(g.ids.length).padStart(3)} × ${g.reason}`)),
      ].join('\n');
    }
    case 'incomplete': {
      // With a baseline, the checks blocked by a known failure do not make the run incomplete.
      const known = new Set(b?.known ?? []);
      const groups = unrun(report).filter((g) => !(g.blockedBy && known.has(g.blockedBy)));
      const count = groups.reduce((sum, g) => sum + g.ids.length, 0);
      return [
        paint(
          'amber',
          `INCOMPLETE — no ${b ? 'new ' : ''}MUST failed, but ${count} MUST requirement(s) did not run or could not be judged:`,
        ),
        ...groups.map((g) => paint('amber', `  ${String(g.ids.length).padStart(3)} × ${g.reason}`)),
        ...fixed,
        ...notOptedIn,
      ].join('\n');
    }
  }
}

export function summary(report: RunReport, paint: Paint = plain): string {
  const statuses: Status[] = ['pass', 'fail', 'skip', 'incomplete'];
  const areas = new Map<string, Record<Status | 'mustFail', number>>();
  for (const r of report.results) {
    const row = areas.get(r.area) ?? { pass: 0, fail: 0, skip: 0, incomplete: 0, mustFail: 0 };
    row[r.status]++;
    if (r.status === 'fail' && r.level === 'MUST') row.mustFail++;
    areas.set(r.area, row);
  }
  const width = Math.max(4, ...[...areas.keys()].map((a) => a.length));
  const line = (a: string, cells: (string | number)[]) =>
    `${a.padEnd(width)}  ${cells.map((c) => String(c).padStart(11)).join('')}`;
  // The causes first (the failures other checks are blocked by, most first), then the rest in order.
  const causing = causes(report);
  const blocksOf = new Map(causing.map((c) => [c.id, c.blocks]));
  const rank = (r: Result) => {
    const i = causing.findIndex((c) => c.id === r.id);
    return i < 0 ? causing.length : i;
  };
  const failures = report.results
    .filter((r) => r.status === 'fail')
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
  const rows = [
    ...(failures.length
      ? [
          'Failures',
          '',
          ...failures.map((r) =>
            failureText(
              r,
              blocksOf.get(r.id),
              report.baseline && r.level === 'MUST'
                ? report.baseline.known.includes(r.id)
                  ? 'known'
                  : 'new'
                : undefined,
            ),
          ),
          '',
        ]
      : []),
    line('area', ['pass', 'fail', 'skip', 'incomplete', 'MUST fail']),
    line('-'.repeat(width), ['----', '----', '----', '----------', '---------']),
  ];
  for (const [area, r] of [...areas].sort())
    rows.push(line(area, [...statuses.map((s) => r[s]), r.mustFail]));
  const count = (s: Status) => report.results.filter((r) => r.status === s).length;
  rows.push(
    '',
    `${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${count('incomplete')} incomplete; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
    `spent: ${spentText(report.spent)}`,
  );
  for (const note of report.notes) rows.push(`note: ${note}`);
  if (report.lockedOutUntil)
    rows.push(
      `note: this address is locked out of /api/v2 until ${report.lockedOutUntil} (the failed-login probe of --probe-limits): every /api/v2 request from this machine gets 429 until then${report.mock ? '; on the lmskit mock, POST /__admin/reset ends it now' : ''}`,
    );
  const compared = baselineText(report);
  if (compared.length) rows.push('', ...compared);
  rows.push('', banner(report, paint));
  return rows.join('\n');
}
