// Every line the service's logger writes while a scenario runs, as written (after redaction).
import pino from 'pino';
import { logger } from '../../src/platform/logger';

export async function captureLogs(
  scenario: () => Promise<void>,
  level: pino.LevelWithSilent = 'trace',
): Promise<string> {
  const stream = (logger as unknown as Record<symbol, { write(chunk: string): boolean }>)[
    pino.symbols.streamSym
  ]!;
  const lines: string[] = [];
  const write = jest.spyOn(stream, 'write').mockImplementation((chunk: string) => {
    lines.push(String(chunk));
    return true;
  });
  const previous = logger.level;
  logger.level = level;
  try {
    await scenario();
  } finally {
    logger.level = previous;
    write.mockRestore();
  }
  return lines.join('');
}

/** The captured lines as JSON objects. */
export function parsedLines(text: string): Array<Record<string, unknown> & { level: number }> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { level: number });
}
