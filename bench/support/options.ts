// Command-line options: `--name value` and `--flag` / `--no-flag`.

export function stringOption(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

export function numberOption(argv: string[], name: string, fallback: number): number {
  const raw = stringOption(argv, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

export function flagOption(argv: string[], name: string, fallback: boolean): boolean {
  if (argv.includes(`--no-${name}`)) return false;
  if (argv.includes(`--${name}`)) return true;
  return fallback;
}

export function choiceOption<T extends string>(
  argv: string[],
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = stringOption(argv, name) ?? fallback;
  if (!choices.includes(raw as T)) {
    throw new Error(`--${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}
