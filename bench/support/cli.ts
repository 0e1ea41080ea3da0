// What `node:util` parseArgs leaves to its callers: it reads every value as a string.

/** The number an option names; refuses anything but a positive finite number. */
export function positiveNumber(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
