/** What the administration commands (`keys`, `webhooks`) share: reading a comma list, printing JSON. */

/** `a, b,,c` as ['a', 'b', 'c']; unset as []. */
export const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A command's answer on stdout, as indented JSON a script can read. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
