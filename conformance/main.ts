// `npx lmskit conformance`: run the suite against a deployment. Options come from flags, then a
// JSON config file (--config), then LMSKIT_* environment variables. The exit code is the outcome:
// 0 every MUST ran and passed, 1 a MUST failed, 3 incomplete; 2 is a usage or configuration error,
// found before any check runs (the preflight: a URL without its scheme, an API's path for the site's
// root, a deployment that cannot be reached or refuses the --api-key), and nothing is judged.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCommandLine, usageError } from '../lib/cli.ts';
import { type Baseline, readBaseline } from './baseline.ts';
import { ALL_CHECKS } from './checks/index.ts';
import { type ConformanceConfig, LICENCE_STATES, type LicenceState } from './context.ts';
import { coverageMarkdown, ruleCatalogue } from './coverage.ts';
import { preflight, SettingError } from './preflight.ts';
import { toHtml } from './reporters/html.ts';
import { toJson } from './reporters/json.ts';
import { toJunit } from './reporters/junit.ts';
import { ansi, plain, progressLine, summary } from './reporters/terminal.ts';
import { sourceOf } from './rules.ts';
import { exitCode, runChecks, startWarnings } from './runner.ts';

const HELP = `usage: lmskit conformance --base-url URL [options]

  --base-url URL        the deployment (its /openapi/v1 and /api/v2)        LMSKIT_BASE_URL
  --api-key KEY         site API key for /openapi/v1                         LMSKIT_API_KEY
  --mcp-key KEY         an MCP key; repeat for keys of several kinds         LMSKIT_MCP_KEYS (comma-separated)
  --mcp-url URL         the MCP tool server (Streamable HTTP) to check too   LMSKIT_MCP_URL
  --allow-writes        run the checks that create fixtures (named after the run, neutralised afterwards)
  --only PATTERN        run the checks whose id contains PATTERN, or matches a glob with *; comma-separated
  --skip PATTERN        leave out the checks that match PATTERN (same syntax)
  --rate N              at most N requests per second                        LMSKIT_RATE
  --expert-user ID      v1 API id of a user who is expert on a course (for the 422 ban check)
  --role-key ROLE=KEY   a read + write MCP key of a user of ROLE (manager, author, learner); repeat.
                        Permissions, the role hierarchy and course_edit on a course need all three.
                        ROLE=none: the deployment gives no keys to ROLE (seed 000: keys are created by
                        admins); that role's checks are "not applicable", listed, and the run can pass
                                                                             LMSKIT_ROLE_KEYS (ROLE=KEY,...)
  --chain ID            a course chain owned by the read + write --mcp-key's owner (assign_chain)
  --role-alias ROLE     role alias of the users the suite creates (default: learner)
  --report SPEC         junit=FILE,json=FILE,html=FILE
  --baseline FILE       expected failures: a JSON report of an earlier run (--report json=FILE) or a JSON list of
                        check ids. Exit 0 when every MUST failure is in it; lists what is newly failing (exit 1)
                        and what it lists that now passes                    LMSKIT_BASELINE
  --config FILE         JSON file with any of: baseUrl, apiKey, mcpKeys, mcpUrl, allowWrites, only, skip, rate,
                        expertUserId, roleAlias, roleKeys, chainId, tenantKeys, revokedKey, probeLimits, uploadDir, report,
                        baseline (a file)
  --list                list the checks with their level and seed rules, and exit
  --rules               print the seed rules and the checks that cover each, and exit
  --format FORMAT       for --rules: markdown (default) or json

opt-in (not given, these checks are listed as not opted in; the run can still pass):
  --tenant-key STATE=KEY  a key of a tenant whose licence is STATE: read, none or no-ai (mcpAiAccess
                        false); repeat                                       LMSKIT_TENANT_KEYS (STATE=KEY,...)
  --revoked-key KEY     a revoked MCP key, best one of the --mcp-key owner's: 401, the others still work
                        (2 more failed logins)
  --upload-dir DIR      a directory this machine writes and the tool server reads (its --upload-root), for
                        upload_source_material's file path
  --probe-limits        provoke the limits: up to 2000 requests of the read-only key's rate limit, the
                        read + write key's AI calls of the day (up to the quota of 5), and last up to 100
                        failed logins from this address (its lockout ends the run's requests to /api/v2)

A run that can pass needs --api-key, a read-only and a read + write --mcp-key of an administrator, --role-key
for manager, author and learner, --chain, --mcp-url, --allow-writes and --expert-user (docs/conformance.md).

exit code: 0 every MUST ran and passed (but those not opted in or not applicable) · 1 a MUST failed ·
2 usage or configuration error, nothing judged: a flag, a URL without its scheme, an API's path for the
site's root, a deployment that cannot be reached (refused, no such host, TLS) or refuses the --api-key ·
3 incomplete (a MUST was skipped or could not be judged)
`;

const values = parseCommandLine(
  {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'mcp-key': { type: 'string', multiple: true },
    'mcp-url': { type: 'string' },
    'allow-writes': { type: 'boolean' },
    only: { type: 'string' },
    skip: { type: 'string' },
    rate: { type: 'string' },
    'expert-user': { type: 'string' },
    'role-key': { type: 'string', multiple: true },
    chain: { type: 'string' },
    'tenant-key': { type: 'string', multiple: true },
    'revoked-key': { type: 'string' },
    'probe-limits': { type: 'boolean' },
    'upload-dir': { type: 'string' },
    format: { type: 'string' },
    'role-alias': { type: 'string' },
    report: { type: 'string' },
    baseline: { type: 'string' },
    config: { type: 'string' },
    list: { type: 'boolean' },
    rules: { type: 'boolean' },
  },
  HELP,
);
if (values.rules) {
  const format = values.format ?? 'markdown';
  if (format === 'json') console.log(JSON.stringify({ rules: ruleCatalogue(ALL_CHECKS) }, null, 2));
  else if (format === 'markdown') console.log(coverageMarkdown(ALL_CHECKS));
  else usageError(`lmskit conformance: unknown --format ${format} (markdown, json)`, HELP);
  process.exit(0);
}
if (values.list) {
  for (const c of ALL_CHECKS)
    console.log(
      `${c.level.padEnd(6)} ${c.id.padEnd(52)} ${c.rules.join(' ')}  ${sourceOf(c.rules, c.assumption)}`,
    );
  process.exit(0);
}

type FileConfig = Partial<Omit<ConformanceConfig, 'baseline'>> & { report?: string; baseline?: string };
let file: FileConfig = {};
try {
  if (values.config) file = JSON.parse(readFileSync(values.config, 'utf8'));
} catch (error) {
  usageError(`cannot read the config file ${values.config}: ${(error as Error).message}`, HELP);
}
const env = process.env;

/** `ROLE=KEY` pairs of repeated flags or a comma-separated variable, as an object. */
function pairs(flag: string, given: string[] | undefined, variable: string | undefined) {
  const list = given ?? (variable ? variable.split(',').filter(Boolean) : []);
  return Object.fromEntries(
    list.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1 || at === pair.length - 1)
        usageError(`lmskit conformance: --${flag} takes NAME=KEY, not ${pair}`, HELP);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}
const roleKeys = { ...file.roleKeys, ...pairs('role-key', values['role-key'], env.LMSKIT_ROLE_KEYS) };
const tenantKeys = {
  ...file.tenantKeys,
  ...pairs('tenant-key', values['tenant-key'], env.LMSKIT_TENANT_KEYS),
};
for (const state of Object.keys(tenantKeys)) {
  if (!LICENCE_STATES.includes(state as LicenceState))
    usageError(
      `lmskit conformance: --tenant-key ${state}: the state is one of ${LICENCE_STATES.join(', ')}`,
      HELP,
    );
}
const chain = values.chain ?? file.chainId;
if (chain !== undefined && !/^[1-9]\d{0,9}$/.test(String(chain)))
  usageError(`lmskit conformance: --chain takes a chain's integer id, not ${chain}`, HELP);

const baselineFile = values.baseline ?? file.baseline ?? env.LMSKIT_BASELINE;
let baseline: Baseline | undefined;
try {
  if (baselineFile) baseline = readBaseline(baselineFile);
} catch (error) {
  usageError(`lmskit conformance: ${(error as Error).message}`, HELP);
}

const config: ConformanceConfig = {
  baseUrl: values['base-url'] ?? file.baseUrl ?? env.LMSKIT_BASE_URL ?? '',
  apiKey: values['api-key'] ?? file.apiKey ?? env.LMSKIT_API_KEY,
  mcpKeys:
    values['mcp-key'] ??
    file.mcpKeys ??
    (env.LMSKIT_MCP_KEYS ? env.LMSKIT_MCP_KEYS.split(',').filter(Boolean) : []),
  mcpUrl: values['mcp-url'] ?? file.mcpUrl ?? env.LMSKIT_MCP_URL,
  allowWrites: values['allow-writes'] ?? file.allowWrites ?? false,
  only: values.only ?? file.only,
  skip: values.skip ?? file.skip,
  rate: Number(values.rate ?? file.rate ?? env.LMSKIT_RATE ?? 0),
  expertUserId: values['expert-user'] ?? file.expertUserId,
  roleAlias: values['role-alias'] ?? file.roleAlias,
  roleKeys,
  tenantKeys,
  ...(chain !== undefined ? { chainId: Number(chain) } : {}),
  revokedKey: values['revoked-key'] ?? file.revokedKey,
  probeLimits: values['probe-limits'] ?? file.probeLimits ?? false,
  uploadDir: values['upload-dir'] ?? file.uploadDir,
  ...(baseline ? { baseline } : {}),
};
if (!config.baseUrl) usageError('lmskit conformance: --base-url is required', HELP);

const reports = Object.fromEntries(
  (values.report ?? file.report ?? '')
    .split(',')
    .filter(Boolean)
    .map((part) => part.split('=') as [string, string]),
);
for (const kind of Object.keys(reports)) {
  if (!['junit', 'json', 'html'].includes(kind))
    usageError(`lmskit conformance: unknown report kind ${kind} (junit, json, html)`, HELP);
}

// Before any check: a setting the run cannot be judged with is the vendor's, not the deployment's.
try {
  await preflight(config);
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(`lmskit conformance: ${error.message}`);
  process.exit(2);
}

const paint = process.stdout.isTTY && !process.env.NO_COLOR ? ansi : plain;
console.log(`lmskit conformance against ${config.baseUrl}${config.mcpUrl ? ` and ${config.mcpUrl}` : ''}`);
for (const warning of startWarnings(config)) console.log(paint('amber', `warning: ${warning}`));
const report = await runChecks(ALL_CHECKS, config, (r) => console.log(progressLine(r, paint)));
console.log(`\n${summary(report, paint)}`);
const writers = { junit: toJunit, json: toJson, html: toHtml } as const;
for (const [kind, path] of Object.entries(reports)) {
  try {
    writeFileSync(path, writers[kind as keyof typeof writers](report));
    console.log(`${kind} report: ${path}`);
  } catch (error) {
    console.error(`${kind} report not written to ${path}: ${(error as Error).message}`);
  }
}
process.exit(exitCode(report));
