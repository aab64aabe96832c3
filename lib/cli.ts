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
    return values as ReturnType<typeof parseArgs<{ options: O }>>['values'];
  } catch (error) {
    return usageError((error as Error).message, help);
  }
}

/** A TCP port from a flag or variable. */
export function portOf(text: string, help: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usageError(`not a port: ${text}`, help);
  return port;
}
