/** The command-line flags the bench scripts read: `--name value` after the script's own arguments. */

/**
 * `--name`'s value as an integer >= 1, or `fallback` without the flag; any
 * other value is refused on stderr, naming the script (`command`, e.g.
 * 'bench:bulk'), and the process exits with code 1.
 */
export function positiveIntegerFlag(command: string, name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${command}: --${name} must be an integer >= 1, got ${process.argv[at + 1]}\n`);
    process.exit(1);
  }
  return value;
}
