// Before any check runs: the settings a run cannot be judged with. A URL that is not http(s), an API's
// path given for the site's root, a deployment that cannot be reached (refused, no such host, TLS) or
// that refuses the site API key are the vendor's settings, not the deployment's departures: each is
// one sentence and a usage error (exit 2, nothing judged; docs/conformance.md, "Outcome and exit
// code"), never a verdict.
import { type ConformanceConfig, NO_KEYS, ROLES } from './config.ts';

/** A setting the run cannot be judged with: nothing was judged. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** How a setting is named to its reader: the CLI's flags, or runConformance's options. */
export interface SettingNames {
  baseUrl: string;
  apiKey: string;
  mcpUrl: string;
  roleKeys: string;
}
export const FLAG_NAMES: SettingNames = {
  baseUrl: '--base-url',
  apiKey: '--api-key',
  mcpUrl: '--mcp-url',
  roleKeys: '--role-key',
};
export const OPTION_NAMES: SettingNames = {
  baseUrl: 'baseUrl',
  apiKey: 'apiKey',
  mcpUrl: 'mcpUrl',
  roleKeys: 'roleKeys',
};

/** The paths the site's APIs live under (seeds 001 and 000), and the mock's admin API and tool server. */
const API_PATH = /\/(openapi(\/v1)?|api(\/v2)?|__admin|mcp)(\/.*)?$/;

function parsedUrl(value: string, name: string): URL {
  if (!URL.canParse(value))
    throw new SettingError(`${name} ${value} is not a URL: give it with its scheme, e.g. http://${value}`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:4010` parses as a URL of the scheme `localhost:`: a host and port without a scheme.
    const hostAndPort = /^[^/:]+:\d+(\/|$)/.test(value);
    throw new SettingError(
      `${name} ${value} is not an http(s) URL: give it with its scheme, e.g. http://${hostAndPort ? value : value.replace(/^[a-z][a-z0-9+.-]*:\/*/i, '')}`,
    );
  }
  return url;
}

/** What is wrong with the settings themselves, found without a request. */
export function checkSettings(config: ConformanceConfig, names: SettingNames = FLAG_NAMES): void {
  if (!config.baseUrl) throw new SettingError(`${names.baseUrl} is required`);
  const base = parsedUrl(config.baseUrl, names.baseUrl);
  const api = API_PATH.exec(base.pathname);
  if (api) {
    const root = `${base.origin}${base.pathname.slice(0, api.index) || ''}`;
    throw new SettingError(
      `${names.baseUrl} ${config.baseUrl} names ${api[0]}, a path of the site's APIs: give the site's root, ${root} (the suite adds /openapi/v1 and /api/v2 itself)`,
    );
  }
  if (config.mcpUrl) parsedUrl(config.mcpUrl, names.mcpUrl);
  for (const role of Object.keys(config.roleKeys ?? {}))
    if (!(ROLES as readonly string[]).includes(role))
      throw new SettingError(
        `${names.roleKeys} ${role}: the role is one of ${ROLES.join(', ')} (a key, or ${NO_KEYS} when the deployment gives no keys to that role)`,
      );
}

/** Why a request could not be made, in words: refused, no such host, TLS, no answer in time. */
export function unreachable(error: unknown, url: string): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? (e as { code?: string }).code ?? '';
  const { host } = new URL(url);
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'it did not answer in time';
  if (code === 'ECONNREFUSED') return `the connection was refused: nothing listens on ${host}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `no such host: ${new URL(url).hostname} does not resolve (${code})`;
  if (/WRONG_VERSION_NUMBER/.test(code))
    return `the TLS handshake failed (${code}): nothing speaks TLS on ${host}; is it http://?`;
  if (/CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/i.test(code))
    return `the TLS handshake failed (${code}${e.cause?.message && !e.cause.message.includes('\n') ? `: ${e.cause.message}` : ''})`;
  // fetch itself refuses the ports browsers block (1, 6000, …), before any connection.
  if (e.cause?.message === 'bad port') return `fetch refuses to connect to port ${new URL(url).port}`;
  return `the connection failed (${code || e.cause?.message || e.message})`;
}

async function get(url: string, headers: Record<string, string>, timeoutMs: number) {
  const response = await fetch(url, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.arrayBuffer().catch(() => undefined);
  return response.status;
}

/**
 * The settings, then one request to the deployment: the site API key's if one is given (a list of
 * courses, a read), otherwise the capabilities without a key (no failed login: a missing key guesses
 * nothing; docs/conformance.md, Politeness). Then one to the tool server, if given. Throws a
 * SettingError when the run cannot be judged with these settings.
 */
export async function preflight(config: ConformanceConfig, names: SettingNames = FLAG_NAMES): Promise<void> {
  checkSettings(config, names);
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 30_000;
  const [url, headers] = config.apiKey
    ? [`${base}/openapi/v1/courses`, { 'x-api-key': config.apiKey }]
    : [`${base}/api/v2/mcp/capabilities`, {}];
  let status: number;
  try {
    status = await get(url, headers, timeoutMs);
  } catch (error) {
    throw new SettingError(`cannot reach ${names.baseUrl} ${config.baseUrl}: ${unreachable(error, url)}`);
  }
  if (status === 404 && new URL(base).pathname !== '/')
    throw new SettingError(
      `${names.baseUrl} ${config.baseUrl}: ${url} answered 404; give the site's root, where /openapi/v1 and /api/v2 are (e.g. ${new URL(base).origin})`,
    );
  if (config.apiKey && (status === 401 || status === 403))
    throw new SettingError(
      `the deployment refused the ${names.apiKey} (${status}): GET ${url} with it answered ${status}; give the site API key of the tenant`,
    );
  if (config.mcpUrl) {
    try {
      await get(config.mcpUrl, {}, timeoutMs);
    } catch (error) {
      throw new SettingError(
        `cannot reach ${names.mcpUrl} ${config.mcpUrl}: ${unreachable(error, config.mcpUrl)}`,
      );
    }
  }
}
