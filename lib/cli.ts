// Command-line parsing shared by the sub-commands: `--help`/`-h` prints the usage and exits 0; a
// flag that is unknown or malformed prints one line and the usage, and exits 2 — never a stack trace.
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function usageError(message: string, help: string): never {
  console.error(`${message}\n\n${help}`);
  process.exit(2);
}

export function parseCommandLine<O extends NonNullable<ParseArgsConfig['options']>>(
  options: O,
  help: string,
) {
  try {
    const { values } = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if ((values as { help?: boolean }).help) {
      console.log(help);
      process.exit(0);
    }
    refuseBlankFlags(values, help);
    return values as ReturnType<typeof parseArgs<{ options: O }>>['values'];
  } catch (error) {
    return usageError((error as Error).message, help);
  }
}

/**
 * An environment variable's value, where an empty one is an unset one: it gives the default, never a
 * value that means something wider or weaker (an empty LMSKIT_HOST listened on every interface, an
 * empty LMSKIT_RATE_LIMIT turned the limit off; docs/mock.md, Options).
 */
export function fromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === '' ? undefined : value;
}

/**
 * Refuses, for every command, a flag typed empty (`--host ''`, `--upload-root ''`, which would have
 * meant the current directory) or blank (`--state-file ' '`, a file named by a space), in one sentence.
 * An empty variable never gets here (`fromEnv` answers the default); a blank one is a value, refused
 * as the flag is (`LMSKIT_STATE_FILE=' '`).
 */
function refuseBlankFlags(values: Record<string, unknown>, help: string): void {
  for (const [name, value] of Object.entries(values))
    for (const one of Array.isArray(value) ? value : [value])
      if (typeof one === 'string' && one.trim() === '')
        usageError(`--${name} takes a value; it is ${one === '' ? 'empty' : 'blank'}`, help);
}

/**
 * A whole number written in digits alone, or undefined: `Number('')` and `Number(' ')` are 0, which
 * for a limit means "off".
 */
export function wholeNumber(text: string): number | undefined {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
}

/** A TCP port from a flag or variable. */
export function portOf(text: string, help: string): number {
  const port = wholeNumber(text);
  if (port === undefined || port > 65_535) usageError(`not a port: ${text}`, help);
  return port;
}
