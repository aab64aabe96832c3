// Reading untyped answers without trusting their shape: a field that is not an object or a list
// reads as empty, so a check judges what is there and says what it found (`show`).
import type { Exchange } from '../../http.ts';

export type Obj = Record<string, unknown>;

/** The value as an object; anything else reads as `{}`. */
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The value as a list of objects; anything else reads as `[]`. */
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);

/** A value for a reason: JSON, or `missing`. */
export const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));

/** The `code` of a v2 error body (seed 000, Errors: `{error, code}`). */
export const codeOf = (e: Exchange) => (e.body as { code?: unknown } | undefined)?.code;

/** The message of a v2 error: its `error`, or the whole text when there is none. */
export const messageOf = (e: Exchange) => {
  const error = (e.body as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : e.text;
};
