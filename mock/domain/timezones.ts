// Time zone names (seed 001, User: `timezone` is a "TZ name"). A name is valid when the runtime's
// IANA time zone database knows it, spelt as the database spells it: the canonical names of
// `Intl.supportedValuesOf('timeZone')` and the database's links (`UTC`, `Etc/UTC`, `US/Eastern`,
// `Asia/Calcutta`), which the runtime accepts but does not list. Offsets (`+01:00`) are no names.

const LISTED = new Set(Intl.supportedValuesOf('timeZone'));
/** IANA's own spelling: segments that begin with a capital (`America/Port-au-Prince`, `Etc/GMT+5`, `EST5EDT`). */
const IANA_SPELLING = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

/** The name the runtime resolves `name` to, or null when it knows no such zone. */
function resolve(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export function isTimeZone(name: string): boolean {
  return LISTED.has(name) || (IANA_SPELLING.test(name) && resolve(name) !== null);
}

/** Why `name` is no time zone, with the spelling the database uses when only the case is wrong. */
export function timeZoneProblem(name: string): string | null {
  if (isTimeZone(name)) return null;
  const known = IANA_SPELLING.test(name) ? null : resolve(name);
  return known && known.toLowerCase() === name.toLowerCase()
    ? `unknown time zone ${name}; did you mean ${known}?`
    : `unknown time zone ${name}: use an IANA time zone name such as Europe/Berlin or UTC`;
}
