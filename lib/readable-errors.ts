// The sentence a schema gives for its own refusal (`x-refusal` in the contracts), in place of ajv's
// words for each keyword that failed: an e-mail address is refused as "must be an e-mail address
// such as anna@example.com", not as its pattern and then again as its format, and a fault that names
// neither a method and a path nor a tool as what it needs, not as the required properties of every
// branch of an `anyOf` and then the `anyOf` itself. Needs errors made with ajv's `verbose` (lib/ajv.ts),
// which carry the schema that failed.
import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * The keywords whose failure the sentence says: what the value must look like or which of its forms
 * it must take. Another keyword's failure on the same schema (a type, a length, an unknown field) keeps
 * ajv's words, which already say it plainly.
 */
const WORDED = new Set(['anyOf', 'oneOf', 'pattern', 'format']);

const refusalOf = (e: ErrorObject): string | undefined => {
  const refusal = (e.parentSchema as { 'x-refusal'?: unknown } | undefined)?.['x-refusal'];
  return WORDED.has(e.keyword) && typeof refusal === 'string' ? refusal : undefined;
};

/**
 * `errors` with each failure of a pattern, a format or a choice of forms of a schema that has an
 * `x-refusal` said in that sentence, once per value, and the failures inside the branches of such an
 * `anyOf` or `oneOf` left out (the sentence says what the branches ask).
 */
export function readableErrors(errors: ErrorObject[]): ErrorObject[] {
  const alternatives = errors
    .filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && refusalOf(e))
    .map((e) => ({ at: e.instancePath, under: `${e.schemaPath}/` }));
  const said = new Set<string>();
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (alternatives.some((a) => e.instancePath.startsWith(a.at) && e.schemaPath.startsWith(a.under)))
      continue;
    const refusal = refusalOf(e);
    if (!refusal) {
      out.push(e);
      continue;
    }
    const key = `${e.instancePath}\u0000${refusal}`;
    if (said.has(key)) continue;
    said.add(key);
    out.push({ ...e, message: refusal });
  }
  return out;
}
