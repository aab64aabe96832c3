// One request and its answer as the suite's HTTP client (http.ts) recorded it: what evidence is made of.
// A leaf, so what ends a check (outcomes.ts) can name an exchange without importing the client.

/** A request as sent and the answer as received. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The body as sent, or for a multipart form its parts as `name=@filename`. */
  requestBody?: string;
  multipart?: boolean;
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined. */
  body: unknown;
}
