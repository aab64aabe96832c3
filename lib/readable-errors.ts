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
const WORDED = new Set(['anyOf', 'oneOf', 'if', 'pattern', 'format']);

/** Where the failures a choice of forms stands for are: its branches, or an `if`'s `then` and `else`. */
const branchesOf = (e: ErrorObject): string[] =>
  e.keyword === 'if'
    ? [`${e.schemaPath.slice(0, -'if'.length)}then/`, `${e.schemaPath.slice(0, -'if'.length)}else/`]
    : [`${e.schemaPath}/`];

const refusalOf = (e: ErrorObject): string | undefined => {
  const refusal = (e.parentSchema as { 'x-refusal'?: unknown } | undefined)?.['x-refusal'];
  return WORDED.has(e.keyword) && typeof refusal === 'string' ? refusal : undefined;
};

/**
 * `errors` with each failure of a pattern, a format or a choice of forms (`anyOf`, `oneOf`, `if`) of a
 * schema that has an `x-refusal` said in that sentence, once per value, and the failures inside the
 * branches of such a choice left out (the sentence says what the branches ask).
 */
export function readableErrors(errors: ErrorObject[]): ErrorObject[] {
  const alternatives = errors
    .filter((e) => e.keyword !== 'pattern' && e.keyword !== 'format' && refusalOf(e))
    .flatMap((e) => branchesOf(e).map((under) => ({ at: e.instancePath, under })));
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
