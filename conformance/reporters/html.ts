// A self-contained HTML report a person can read: the verdict first, then the failures with their
// evidence, then what did not run and why, then the table by area and every check. No script, no
// external asset.
import { escapeHtml } from '../../lib/html.ts';
import { causes, outcomeOf, type RunReport, spentText, unrun } from '../runner.ts';
import type { Result, Status } from '../types.ts';

const esc = escapeHtml;

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; color: #1d2230; }
h1 { margin-bottom: .2rem; } .meta { color: #555; margin-top: 0; }
.verdict { padding: .8rem 1rem; border-radius: 6px; font-size: 1.1rem; margin: 1rem 0; }
.verdict.passed { background: #e6f4ea; } .verdict.failed { background: #fde8e8; } .verdict.incomplete { background: #fff4d6; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #d6dae3; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f4f8; }
.pass { color: #17692f; } .fail { color: #b3261e; font-weight: 600; } .skip, .incomplete { color: #8a6100; }
.level { font-size: 85%; padding: 0 .35rem; border-radius: 3px; background: #e3e8f4; }
.level.MUST { background: #f8d9d6; }
details { border: 1px solid #d6dae3; border-radius: 6px; margin: .5rem 0; padding: .4rem .7rem; }
summary { cursor: pointer; }
pre { background: #f2f4f8; padding: .5rem; overflow: auto; white-space: pre-wrap; word-break: break-all; }
`;

function evidence(r: Result, blocks: string[] = []): string {
  const e = r.evidence ?? {};
  return [
    blocks.length
      ? `<p><b>Blocks ${blocks.length} more check(s)</b> that need what it makes or finds: ${blocks.map(esc).join(', ')}</p>`
      : '',
    `<p>${esc(r.reason ?? '')}</p>`,
    `<p><b>Requirement:</b> ${esc(r.title)} — <i>${esc(r.source)}</i></p>`,
    e.expected ? `<p><b>Expected:</b> ${esc(e.expected)}</p>` : '',
    e.received ? `<p><b>Received:</b></p><pre>${esc(e.received)}</pre>` : '',
    e.schemaErrors?.length ? `<p><b>Schema errors:</b></p><pre>${esc(e.schemaErrors.join('\n'))}</pre>` : '',
    e.curl ? `<p><b>Reproduce:</b></p><pre>${esc(e.curl)}</pre>` : '',
  ].join('\n');
}

const HEADLINE = {
  passed: 'Passed: every MUST requirement ran and passed',
  failed: 'Failed: a MUST requirement failed',
  passedAgainstBaseline:
    'Passed against the baseline: no MUST requirement failed that the baseline does not list',
  incomplete: 'Incomplete: no MUST requirement failed, but some did not run or could not be judged',
} as const;

/** How the run compares with its baseline (`--baseline`): newly failing, known, fixed. */
function baselineHtml(report: RunReport): string {
  const b = report.baseline;
  if (!b) return '';
  const row = (what: string, ids: string[]) =>
    `<tr><td>${what}</td><td>${ids.length}</td><td>${ids.map((id) => `<code>${esc(id)}</code>`).join(', ')}</td></tr>`;
  return `<h2>Against the baseline</h2><p>${esc(b.source)}: ${b.listed} check(s) expected to fail.</p><table><tr><th></th><th>Checks</th><th>Ids</th></tr>${[
    row('<b class="fail">Newly failing</b> (not in the baseline)', b.newFailures),
    row('Known (in the baseline, still failing)', b.known),
    row('<b class="pass">Fixed</b> (in the baseline, now passing: take them out of it)', b.fixed),
    ...(b.unjudged.length ? [row('In the baseline, not judged in this run', b.unjudged)] : []),
  ].join('')}</table>`;
}

export function toHtml(report: RunReport): string {
  const { results } = report;
  const outcome = outcomeOf(report);
  // The causes first: the failures other checks are blocked by, most first.
  const causing = causes(report);
  const blocksOf = new Map(causing.map((c) => [c.id, c.blocks]));
  const rank = (id: string) => {
    const i = causing.findIndex((c) => c.id === id);
    return i < 0 ? causing.length : i;
  };
  const failed = results
    .filter((r) => r.status === 'fail')
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r.id) - rank(b.r.id) || a.i - b.i)
    .map(({ r }) => r);
  const mustFailed = failed.filter((r) => r.level === 'MUST');
  const count = (s: Status) => results.filter((r) => r.status === s).length;
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const areaRows = areas
    .map((area) => {
      const of = results.filter((r) => r.area === area);
      const n = (s: Status) => of.filter((r) => r.status === s).length;
      return `<tr><td><a href="#${esc(area)}">${esc(area)}</a></td><td class="pass">${n('pass')}</td><td class="${n('fail') ? 'fail' : ''}">${n('fail')}</td><td class="skip">${n('skip')}</td><td class="incomplete">${n('incomplete')}</td></tr>`;
    })
    .join('\n');
  const failures = failed.length
    ? failed
        .map(
          (r) =>
            `<details open><summary><span class="level ${r.level}">${r.level}</span> <b class="fail">${esc(r.id)}</b>${report.baseline && r.level === 'MUST' ? (report.baseline.known.includes(r.id) ? ' — known: in the baseline' : ' — <b>new: not in the baseline</b>') : ''}${blocksOf.has(r.id) ? ` — cause: blocks ${blocksOf.get(r.id)?.length}` : ''}</summary>${evidence(r, blocksOf.get(r.id))}</details>`,
        )
        .join('\n')
    : '<p>None.</p>';
  const groups = (heading: string, list: ReturnType<typeof unrun>) =>
    list.length
      ? `<h2>${heading}</h2><ul>${list
          .map(
            (g) =>
              `<li><b>${g.ids.length}</b> × ${esc(g.reason)}<br><small>${g.ids.map(esc).join(', ')}</small></li>`,
          )
          .join('')}</ul>`
      : '';
  const notRunList =
    groups('MUST requirements that did not run', unrun(report)) +
    groups('MUST requirements not opted in', unrun(report, true));
  const byArea = areas
    .map((area) => {
      const rows = results
        .filter((r) => r.area === area)
        .map(
          (r) =>
            `<tr><td class="${r.status}">${r.status}</td><td><span class="level ${r.level}">${r.level}</span></td><td><code>${esc(r.id)}</code><br>${esc(r.title)}</td><td>${esc(r.source)}</td><td>${esc(r.reason ?? '')}</td></tr>`,
        )
        .join('\n');
      return `<h3 id="${esc(area)}">${esc(area)}</h3><table><tr><th>Verdict</th><th>Level</th><th>Check</th><th>Source</th><th>Why</th></tr>${rows}</table>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>lmskit conformance report</title><style>${STYLE}</style></head>
<body>
<h1>lmskit conformance report</h1>
<p class="meta">${esc(report.baseUrl)}${report.mcpUrl ? ` · MCP ${esc(report.mcpUrl)}` : ''} · ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · ${report.requests} requests · writes ${report.allowWrites ? 'allowed' : 'not allowed'} · spent ${esc(spentText(report.spent))}</p>
<div class="verdict ${outcome}"><b>${outcome === 'passed' && report.baseline?.known.length ? HEADLINE.passedAgainstBaseline : HEADLINE[outcome]}</b>${mustFailed.length ? ` (${mustFailed.length} MUST failed${report.baseline ? `, ${report.baseline.newFailures.length} of them new` : ''})` : ''} — ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${count('incomplete')} incomplete.</div>
${causing.length ? `<p><b>Causes first:</b> ${causing.map((c) => `<code>${esc(c.id)}</code> failed, and ${c.blocks.length} check(s) that need it are blocked by it`).join('; ')}.</p>` : ''}
${(report.warnings ?? []).map((w) => `<p><b>Said before the run:</b> ${esc(w)}</p>`).join('\n')}
${report.lockedOutUntil ? `<p><b>This address is locked out of /api/v2 until ${esc(report.lockedOutUntil)}</b> (the failed-login probe of --probe-limits)${report.mock ? '; on the lmskit mock, POST /__admin/reset ends it now' : ''}.</p>` : ''}
<p><b>MUST</b> checks what the seeds document; <b>SHOULD</b> what the kit assumed where they say "not shown". A skipped check names the flag that would run it; an incomplete one says why it could not be judged.</p>
${baselineHtml(report)}
<h2>Failures</h2>
${failures}
${notRunList}
<h2>By area</h2>
<table><tr><th>Area</th><th>Passed</th><th>Failed</th><th>Skipped</th><th>Incomplete</th></tr>${areaRows}</table>
${report.notes.length ? `<h2>Notes</h2><ul>${report.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<h2>Every check</h2>
${byArea}
</body></html>
`;
}
