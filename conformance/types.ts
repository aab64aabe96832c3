// The conformance suite's vocabulary. A check is a small named unit with one
// signature: it gets the context, and answers a verdict with evidence.

/** MUST: what a seed documents. SHOULD: what the kit assumed where a seed says "not shown". */
export type Level = 'MUST' | 'SHOULD';

export type Status = 'pass' | 'fail' | 'skip';

export interface Evidence {
  expected?: string;
  received?: string;
  schemaErrors?: string[];
  /** A curl line that reproduces the request (keys replaced by placeholders). */
  curl?: string;
}

export interface Verdict {
  status: Status;
  /** Why it failed or was skipped, in a sentence. */
  reason?: string;
  evidence?: Evidence;
}

/** What a check needs; a check whose needs are not met is skipped, saying which. */
export interface Needs {
  apiKey?: boolean;
  /** An MCP key whose effective scopes include these. */
  mcpScope?: 'read' | 'write';
  /** Writes allowed (`--allow-writes`). */
  writes?: boolean;
  mcpUrl?: boolean;
  /** Named values from the configuration (e.g. `expertUserId`). */
  config?: string[];
}

export interface Check {
  /** Stable id: `<api>.<area>.<subject>.<rule>`, e.g. `v1.users.create.duplicate-email`. */
  id: string;
  /** The area it is reported under, e.g. `v1.users`. */
  area: string;
  level: Level;
  /** Where the requirement comes from: a seed section, or `assumed: ...`. */
  source: string;
  title: string;
  needs?: Needs;
  run: (ctx: import('./context.ts').Context) => Promise<Verdict>;
}

export interface Result {
  id: string;
  area: string;
  level: Level;
  source: string;
  title: string;
  status: Status;
  reason?: string;
  evidence?: Evidence;
  durationMs: number;
}
