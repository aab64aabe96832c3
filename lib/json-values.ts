// How many values a parsed JSON (or YAML) value holds — objects, arrays and scalars, counted through
// the nesting and through parts it shares (a YAML alias counts each time it is used) — for bounds on
// what a client or a file may make the kit walk: fault patterns, fixtures.

/** The values of `value`, counted no further than `limit`: the cost is bounded by the limit, not the value. */
export function countValues(value: unknown, limit: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length && count < limit) {
    const next = stack.pop();
    count++;
    if (Array.isArray(next)) for (const item of next) stack.push(item);
    else if (next !== null && typeof next === 'object')
      for (const item of Object.values(next)) stack.push(item);
  }
  return count;
}
