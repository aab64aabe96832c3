// What a pipeline step answers when it stops a request: the v2 error body and, for 429, the delay.
export interface Failure {
  status: number;
  code: string;
  message: string;
  /** Seconds, for `Retry-After` (seed 000: "A 429 carries the retry delay inside the error message text"). */
  retryAfter?: number;
}
