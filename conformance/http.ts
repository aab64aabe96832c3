// The suite's HTTP client: paced to `--rate` requests per second, honouring 429 and `Retry-After`
// (a deployment's limits must not turn into failures), and recording each exchange so a verdict can
// show what was sent and received, with a curl line that reproduces it.

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined. */
  body: unknown;
}

export interface HttpOptions {
  /** Requests per second at most; 0 = unpaced. */
  rate?: number;
  /** How often a 429 is waited out and retried. */
  maxRetries?: number;
  /** A 429 asking for a longer wait than this is taken as the answer. */
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
export function curlOf(e: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): string {
  const parts = ['curl', '-i', '-X', e.method];
  for (const [name, value] of Object.entries(e.requestHeaders)) {
    parts.push('-H', quote(`${name}: ${SECRET_HEADERS[name.toLowerCase()] ?? value}`));
  }
  if (e.requestBody !== undefined)
    parts.push(
      '--data',
      quote(e.requestBody.length > 2000 ? `${e.requestBody.slice(0, 2000)}...` : e.requestBody),
    );
  parts.push(quote(e.url));
  return parts.join(' ');
}

export class HttpClient {
  private nextAt = 0;
  requests = 0;

  constructor(private readonly options: HttpOptions = {}) {}

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
  ): Promise<Exchange> {
    const requestBody =
      body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const requestHeaders = {
      accept: 'application/json',
      ...(requestBody !== undefined && !('content-type' in headers)
        ? { 'content-type': 'application/json' }
        : {}),
      ...headers,
    };
    for (let attempt = 0; ; attempt++) {
      await this.pace();
      this.requests++;
      const response = await fetch(url, {
        method,
        headers: requestHeaders,
        body: requestBody,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {}
      const exchange = {
        method,
        url,
        requestHeaders,
        requestBody,
        status: response.status,
        headers: response.headers,
        text,
        body: parsed,
      };
      if (response.status !== 429 || attempt >= (this.options.maxRetries ?? 3)) return exchange;
      const asked = Number(response.headers.get('retry-after'));
      const waitMs = (Number.isFinite(asked) && asked > 0 ? asked : 2 ** attempt) * 1000;
      if (waitMs > (this.options.maxWaitMs ?? 60_000)) return exchange;
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}
