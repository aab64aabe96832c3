// Departures of the limits checks (conformance/checks/v2/limits.ts, --probe-limits). A limit that is not
// there at all is no departure the suite can prove: the seed does not show the rate limit's value nor
// the failed-login threshold, so not meeting them within the run's budget leaves those checks
// incomplete. The AI quota has a value, 5 calls per key a day: not enforcing it fails.
import type { Answer } from '../proxy.ts';
import type { Departure, Json } from './kit.ts';
import { accept, onStatus, V2_ANY } from './kit.ts';

const code = (a: Answer) => (a.body as Json)?.code;

export const LIMIT_DEPARTURES: Departure[] = [
  {
    name: 'the per-key rate limit answered by a gateway in plain text',
    seed: '000 Errors: "429 | `MCP_RATE_LIMITED` | per-key rate limit exceeded"; "Error body shape: {error: string, code: string}"',
    catches: 'v2.limits.rate-limit',
    rewrites: () => [
      {
        path: V2_ANY,
        response: (a) =>
          a.status === 429 && code(a) === 'MCP_RATE_LIMITED'
            ? {
                status: 429,
                headers: { 'content-type': 'text/plain', 'retry-after': '1' },
                body: Buffer.from('Too Many Requests'),
              }
            : undefined,
      },
    ],
  },
  {
    name: 'the 429 of the rate limit without the delay in its message',
    seed: '000 Errors: "A 429 carries the retry delay inside the error message text."',
    catches: 'v2.limits.rate-limit',
    rewrites: () => [
      onStatus(V2_ANY, 429, (b) => {
        if (b.code === 'MCP_RATE_LIMITED') b.error = 'Rate limit exceeded; slow down.';
      }),
    ],
  },
  {
    name: 'the rate limit counted per address, not per key',
    seed: '000 Errors: "429 | `MCP_RATE_LIMITED` | per-key rate limit exceeded"',
    catches: 'v2.limits.rate-limit',
    rewrites: () => {
      // Once any key is limited, every key from the address is, for the delay asked.
      let until = 0;
      let refusal: Answer | undefined;
      return [
        {
          path: V2_ANY,
          request: () => (refusal && Date.now() < until ? refusal : undefined),
          response: (a) => {
            if (a.status !== 429 || code(a) !== 'MCP_RATE_LIMITED') return;
            refusal = { status: 429, headers: { 'retry-after': '1' }, body: a.body };
            until = Date.now() + 1000;
          },
        },
      ];
    },
  },
  {
    name: 'the tool server gives up on a 429 at once',
    seed: '000 Errors: "The tool server retries 429 responses with exponential backoff, at most 3 times."',
    catches: 'mcp.tools.retries-429',
    // The tool server's requests (User-Agent lmskit-mcp) get the rate limit's refusal as a plain
    // failure, which it reports at once, as a tool server that does not retry does.
    rewrites: () => [
      {
        path: V2_ANY,
        response: (a, req) =>
          a.status === 429 && req.headers['user-agent'] === 'lmskit-mcp'
            ? { status: 503, body: a.body }
            : undefined,
      },
    ],
  },
  {
    name: 'the AI quota not enforced: the 6th call of a key goes on',
    seed: '000 Limits: "AI tools (generation and refinement, shared) | 5 calls per key per day"',
    catches: 'v2.limits.ai-quota',
    rewrites: () => [
      accept('POST', /^\/api\/v2\/ai\//, 429, (req) =>
        req.path.endsWith('/generate')
          ? { jobId: 'job_unlimited', status: 'queued', message: 'Generation started.' }
          : {
              courseId: 0,
              lessonId: 0,
              questionId: 0,
              message: 'Done.',
              elementsAdded: 1,
              transitionsAdded: 1,
            },
      ),
    ],
  },
  {
    name: 'the AI quota counted per tool',
    seed: '000 Limits: "AI tools (generation and refinement, shared) | 5 calls per key per day … each call counts as one"',
    catches: 'v2.limits.ai-quota',
    rewrites: () => {
      // The first tool refused keeps its refusal; the others had quotas of their own, not yet used.
      let first: string | undefined;
      const kind = (path: string) => path.replace(/\/\d+\//g, '/:id/');
      return [
        {
          method: 'POST',
          path: /^\/api\/v2\/ai\//,
          response: (a, req) => {
            if (a.status !== 429) return;
            first ??= kind(req.path);
            if (kind(req.path) !== first)
              return { status: 200, body: { message: 'Done.', elementsAdded: 1, transitionsAdded: 1 } };
          },
        },
      ];
    },
  },
  {
    name: 'the failed-login lockout without its delay',
    seed: '000 Errors: "429 | `MCP_AUTH_RATE_LIMITED` | per-IP limit on failed authentication attempts; message form: too many failed attempts, retry after <N>s"',
    catches: 'v2.limits.failed-logins',
    rewrites: () => [
      onStatus(V2_ANY, 429, (b) => {
        if (b.code === 'MCP_AUTH_RATE_LIMITED') b.error = 'Too many failed attempts.';
      }),
    ],
  },
];
