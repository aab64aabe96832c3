// The terminal's story of a run: a line per check as it runs; then each failure with the
// requirement, what was expected and received, and a curl line; a table by area; and the outcome
// last, where the eye lands: green when every MUST ran and passed, red when one failed, amber when
// some did not run — with why, and the flag that would run them.
import { outcomeOf, type RunReport, spentText, unrun } from '../runner.ts';
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

/** A failure as the terminal shows it: the HTML report's evidence, in lines. */
export function failureText(r: Result): string {
  const e = r.evidence ?? {};
  return [
    `✗ [${r.level}] ${r.id} — ${r.title}`,
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

/** The outcome in one or more lines: what a CI log reader must see. */
export function banner(report: RunReport, paint: Paint = plain): string {
  const must = report.results.filter((r) => r.level === 'MUST' && !r.optIn);
  const n = (s: Status) => must.filter((r) => r.status === s).length;
  const optIns = unrun(report, true);
  const notOptedIn = optIns.length
    ? [
        paint(
          'dim',
          `  not opted in: ${optIns.reduce((sum, g) => sum + g.ids.length, 0)} MUST requirement(s) that need a flag:`,
        ),
        ...optIns.map((g) => paint('dim', `  ${String(g.ids.length).padStart(3)} × ${g.reason}`)),
      ]
    : [];
  switch (outcomeOf(report)) {
    case 'passed':
      return [
        paint('green', `PASSED — every MUST requirement ran and passed (${n('pass')}).`),
        ...notOptedIn,
      ].join('\n');
    case 'failed':
      return paint(
        'red',
        `FAILED — ${n('fail')} MUST requirement(s) failed${n('skip') + n('incomplete') ? `; ${n('skip') + n('incomplete')} did not run` : ''}.`,
      );
    case 'incomplete':
      return [
        paint(
          'amber',
          `INCOMPLETE — no MUST failed, but ${n('skip') + n('incomplete')} MUST requirement(s) did not run or could not be judged:`,
        ),
        ...unrun(report).map((g) => paint('amber', `  ${String(g.ids.length).padStart(3)} × ${g.reason}`)),
        ...notOptedIn,
      ].join('\n');
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
  const failures = report.results.filter((r) => r.status === 'fail');
  const rows = [
    ...(failures.length ? ['Failures', '', ...failures.map(failureText), ''] : []),
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
  rows.push('', banner(report, paint));
  return rows.join('\n');
}
