// The one rule by which a JSON pattern matches a JSON value, shared by the request journal's `body`
// filter and the faults' `match.body` (openapi/admin, JournalBody and FaultMatch): a pattern object
// matches an object holding at least its properties, each matching in turn; a pattern array matches an
// array of the same length, item by item; anything else matches an equal value. It is the rule of
// vitest's and Jest's `toMatchObject`, which the tests that use it already know.

/** Whether `value` matches `pattern`. */
export const matchesJson = (value: unknown, pattern: unknown): boolean => jsonMatcher(pattern)(value);

/** The most values (objects, arrays and scalars, counted through the nesting) a pattern may hold. */
export const MAX_PATTERN_VALUES = 1000;

/**
 * `matchesJson(·, pattern)` made once: the pattern's properties are listed when it is made, not on
 * every request, and a request's body is walked only as far as the first value that does not match.
 */
export function jsonMatcher(pattern: unknown): (value: unknown) => boolean {
  if (Array.isArray(pattern)) {
    const items = pattern.map(jsonMatcher);
    return (value) =>
      Array.isArray(value) && value.length === items.length && items.every((match, i) => match(value[i]));
  }
  if (pattern !== null && typeof pattern === 'object') {
    const properties = Object.entries(pattern as Record<string, unknown>).map(
      ([name, item]) => [name, jsonMatcher(item)] as const,
    );
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      return properties.every(([name, match]) => Object.hasOwn(record, name) && match(record[name]));
    };
  }
  return (value) => value === pattern;
}
