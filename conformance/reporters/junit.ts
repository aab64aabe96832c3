// JUnit XML for CI: one test suite per area, one test case per check; a failed check is a
// <failure> (its level in the name and the type), a MUST that could not be judged an <error> (so a
// CI never shows it green), a skip and a SHOULD that could not be judged <skipped>.
import { causes, type RunReport } from '../runner.ts';
import type { Result } from '../types.ts';

const xml = (s: string) =>
  s
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
    )
    .replace(/[^\t\n\r\u0020-\uffff]/g, '');

function testcase(r: Result, blocks: string[] = [], baseline?: RunReport['baseline']): string {
  const head = `    <testcase classname="${xml(r.area)}" name="${xml(`[${r.level}] ${r.id}: ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}">`;
  const details = [
    blocks.length ? `blocks ${blocks.length} more check(s): ${blocks.join(', ')}` : '',
    r.reason,
    r.evidence?.expected && `expected: ${r.evidence.expected}`,
    r.evidence?.received && `received: ${r.evidence.received}`,
    ...(r.evidence?.schemaErrors ?? []).map((e) => `schema: ${e}`),
    r.evidence?.curl && `reproduce: ${r.evidence.curl}`,
    `source: ${r.source}`,
  ]
    .filter(Boolean)
    .join('\n');
  // With a baseline, a known MUST failure is <skipped> (expected), a new one a <failure> that says so,
  // and a check the baseline lists that now passes says it is fixed.
  const known = baseline?.known.includes(r.id);
  const isNew = baseline && r.level === 'MUST' && r.status === 'fail' && !known;
  const body = known
    ? `\n      <skipped message="${xml(`known failure, in the baseline ${baseline?.source}: ${r.reason ?? ''}`)}"/>\n    `
    : baseline?.fixed.includes(r.id)
      ? `\n      <system-out>fixed: listed in the baseline ${xml(baseline.source)}, now passes</system-out>\n    `
      : r.status === 'fail'
        ? `\n      <failure message="${xml(`${isNew ? '(new: not in the baseline) ' : ''}${blocks.length ? `(cause of ${blocks.length} blocked) ` : ''}${r.reason ?? 'failed'}`)}" type="${r.level}">${xml(details)}</failure>\n    `
        : r.status === 'incomplete' && r.level === 'MUST' && !r.blockedBy
          ? `\n      <error message="${xml(r.reason ?? 'incomplete')}" type="incomplete">${xml(details)}</error>\n    `
          : r.status !== 'pass'
            ? `\n      <skipped message="${xml(r.reason ?? r.status)}"/>\n    `
            : '';
  return `${head}${body}</testcase>`;
}

export function toJunit(report: RunReport): string {
  // A knock-on (blocked by another check's failure) is <skipped>, naming its cause: the failure counts once.
  const blocksOf = new Map(causes(report).map((c) => [c.id, c.blocks]));
  const knownIds = new Set(report.baseline?.known ?? []);
  const areas = new Map<string, Result[]>();
  for (const r of report.results) areas.set(r.area, [...(areas.get(r.area) ?? []), r]);
  const suites = [...areas].map(([area, results]) => {
    const failures = results.filter((r) => r.status === 'fail' && !knownIds.has(r.id)).length;
    const errors = results.filter(
      (r) => r.status === 'incomplete' && r.level === 'MUST' && !r.blockedBy,
    ).length;
    const skipped =
      results.filter((r) => (r.status !== 'pass' && r.status !== 'fail') || knownIds.has(r.id)).length -
      errors;
    const time = results.reduce((s, r) => s + r.durationMs, 0) / 1000;
    return `  <testsuite name="${xml(area)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">\n${results.map((r) => testcase(r, blocksOf.get(r.id), report.baseline)).join('\n')}\n  </testsuite>`;
  });
  const failures = report.results.filter((r) => r.status === 'fail' && !knownIds.has(r.id)).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="lmskit conformance" tests="${report.results.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
