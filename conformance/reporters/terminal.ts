// Progress while the suite runs, and a summary table by area at the end.
import type { RunReport } from '../runner.ts';
import type { Result } from '../types.ts';

const MARK = { pass: '✓', fail: '✗', skip: '-' } as const;

export function progressLine(r: Result, index: number, total: number): string {
  const head = `${String(index + 1).padStart(String(total).length)}/${total} ${MARK[r.status]} ${r.level.padEnd(6)} ${r.id}`;
  return r.status === 'pass' ? head : `${head} — ${r.reason ?? ''}`;
}

export function summary(report: RunReport): string {
  const areas = new Map<string, { pass: number; fail: number; skip: number; mustFail: number }>();
  for (const r of report.results) {
    const row = areas.get(r.area) ?? { pass: 0, fail: 0, skip: 0, mustFail: 0 };
    row[r.status]++;
    if (r.status === 'fail' && r.level === 'MUST') row.mustFail++;
    areas.set(r.area, row);
  }
  const width = Math.max(4, ...[...areas.keys()].map((a) => a.length));
  const line = (a: string, p: string | number, f: string | number, s: string | number, m: string | number) =>
    `${a.padEnd(width)}  ${String(p).padStart(4)}  ${String(f).padStart(4)}  ${String(s).padStart(4)}  ${String(m).padStart(9)}`;
  const rows = [
    line('area', 'pass', 'fail', 'skip', 'MUST fail'),
    line('-'.repeat(width), '----', '----', '----', '---------'),
  ];
  for (const [area, r] of [...areas].sort()) rows.push(line(area, r.pass, r.fail, r.skip, r.mustFail));
  const total = report.results;
  const count = (s: Result['status']) => total.filter((r) => r.status === s).length;
  const mustFailed = total.filter((r) => r.status === 'fail' && r.level === 'MUST').length;
  rows.push(
    '',
    `${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped — ${mustFailed} MUST failure(s); ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  for (const note of report.notes) rows.push(`note: ${note}`);
  return rows.join('\n');
}
