// The one rule by which a JSON pattern matches a JSON value, shared by the request journal's `body`
// filter and the faults' `match.body` (openapi/admin, JournalBody and FaultMatch): a pattern object
// matches an object holding at least its properties, each matching in turn; a pattern array matches an
// array of the same length, item by item; anything else matches an equal value. It is the rule of
// vitest's and Jest's `toMatchObject`, which the tests that use it already know.

/** Whether `value` matches `pattern`. */
export function matchesJson(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern))
    return (
      Array.isArray(value) &&
      value.length === pattern.length &&
      pattern.every((item, i) => matchesJson(value[i], item))
    );
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    return Object.entries(pattern as Record<string, unknown>).every(
      ([name, item]) => Object.hasOwn(record, name) && matchesJson(record[name], item),
    );
  }
  return value === pattern;
}
