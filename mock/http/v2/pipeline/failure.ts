// What a pipeline step answers when it stops a request: the v2 error body, and for 429 the delay.
export type { ApiError as Failure } from '../../error-body.ts';
