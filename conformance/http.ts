// The suite's HTTP client: paced to `--rate` requests per second, honouring the deployment's limits
// (a 429 is waited out when the wait is short, and otherwise ends the check as "blocked by the
// deployment's limits — retry after N s", never as a failure), and recording each exchange so a
// verdict can show what was sent and received, with a curl line that reproduces it.
import type { Exchange } from './exchange.ts';
import { Blocked } from './outcomes.ts';
import { request } from './request.ts';

export type { Exchange } from './exchange.ts';

export interface HttpOptions {
  /** Requests per second at most; 0 = unpaced. */
  rate?: number;
  /** How often a 429 is waited out and retried. */
  maxRetries?: number;
  /** A 429 asking for a longer wait than this ends the check as blocked. */
  maxWaitMs?: number;
  timeoutMs?: number;
}

const SECRET_HEADERS: Record<string, string> = {
  'x-api-key': '<API_KEY>',
  'x-mcp-key': '<MCP_KEY>',
  authorization: '<TOKEN>',
};

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A curl line for an exchange, with secrets replaced by placeholders. */
export function curlOf(
  e: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'multipart'>,
): string {
  const parts = ['curl', '-i', '-X', e.method];
  for (const [name, value] of Object.entries(e.requestHeaders)) {
    if (e.multipart && name.toLowerCase() === 'content-type') continue;
    parts.push('-H', quote(`${name}: ${SECRET_HEADERS[name.toLowerCase()] ?? value}`));
  }
  if (e.requestBody !== undefined && e.multipart) {
    for (const part of e.requestBody.split('\n')) parts.push('-F', quote(part));
  } else if (e.requestBody !== undefined)
    parts.push(
      '--data',
      quote(e.requestBody.length > 2000 ? `${e.requestBody.slice(0, 2000)}...` : e.requestBody),
    );
  parts.push(quote(e.url));
  return parts.join(' ');
}

/** The delay a 429 asks for: `Retry-After`, or the seed's "retry after <N>s" in the message. */
export function retryAfterOf(headers: Headers, text: string): number | undefined {
  const header = Number(headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header;
  const inText = /retry after (\d+)\s*s/i.exec(text);
  return inText ? Number(inText[1]) : undefined;
}

/** `http://host/api/v2/users?x` → `http://host/api/v2`: the API a limit applies to. */
const apiOfUrl = (url: string) => {
  const u = new URL(url);
  return `${u.origin}/${u.pathname.split('/').slice(1, 3).join('/')}`;
};

export class HttpClient {
  private nextAt = 0;
  /** Per API: until when the deployment refuses every request from this address (a per-IP limit). */
  private readonly blockedUntil = new Map<string, { at: number; exchange: Exchange }>();
  requests = 0;

  constructor(private readonly options: HttpOptions = {}) {}

  /** When the lockout of this address from an API (its base URL, `http://host/api/v2`) ends, in ms since the epoch, if one is in force. */
  lockoutEnds(api: string): number | undefined {
    const block = this.blockedUntil.get(api);
    return block && block.at > Date.now() ? block.at : undefined;
  }

  private async pace(): Promise<void> {
    const rate = this.options.rate ?? 0;
    if (rate <= 0) return;
    const now = Date.now();
    const wait = this.nextAt - now;
    this.nextAt = Math.max(now, this.nextAt) + 1000 / rate;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  async send(
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: unknown,
    /** False for a probe of the limits, which wants to see the 429 itself. */
    waitOut429 = true,
  ): Promise<Exchange> {
    const block = this.blockedUntil.get(apiOfUrl(url));
    if (block && block.at > Date.now())
      throw new Blocked(block.exchange, Math.ceil((block.at - Date.now()) / 1000));
    const multipart = body instanceof FormData;
    const requestBody = multipart
      ? [...(body as FormData).entries()]
          .map(([name, v]) => (typeof v === 'string' ? `${name}=${v}` : `${name}=@${v.name}`))
          .join('\n')
      : body === undefined
        ? undefined
        : typeof body === 'string'
          ? body
          : JSON.stringify(body);
    const requestHeaders = {
      accept: 'application/json',
      ...(requestBody !== undefined && !multipart && !('content-type' in headers)
        ? { 'content-type': 'application/json' }
        : {}),
      ...headers,
    };
    for (let attempt = 0; ; attempt++) {
      await this.pace();
      this.requests++;
      const response = await request(
        url,
        method,
        requestHeaders,
        multipart ? (body as FormData) : requestBody,
        this.options.timeoutMs ?? 30_000,
      );
      const { text } = response;
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {}
      const exchange: Exchange = {
        method,
        url,
        requestHeaders,
        ...(requestBody !== undefined ? { requestBody } : {}),
        ...(multipart ? { multipart } : {}),
        status: response.status,
        headers: response.headers,
        text,
        body: parsed,
      };
      if (response.status !== 429) return exchange;
      const asked = retryAfterOf(response.headers, text);
      const waitMs = (asked ?? 2 ** attempt) * 1000;
      if ((parsed as { code?: string } | undefined)?.code === 'MCP_AUTH_RATE_LIMITED' && asked) {
        // Seed 000: the failed-authentication limit is per IP, so every request from here is refused
        // (also after the probe of that limit, which sees its 429 itself).
        this.blockedUntil.set(apiOfUrl(url), { at: Date.now() + waitMs, exchange });
      }
      if (!waitOut429) return exchange;
      if (attempt >= (this.options.maxRetries ?? 3) || waitMs > (this.options.maxWaitMs ?? 60_000))
        throw new Blocked(exchange, asked);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}
