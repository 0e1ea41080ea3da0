// Debian's headless Chromium, driven by playwright-core (a browser download of its own cannot work
// here). Without Chromium (a laptop) a browser test is skipped with a message; CI (.ci/run)
// installs Chromium, and with CI set a missing browser fails instead.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `describe` where Chromium is installed, else `describe.skip` (and a failing test in CI). */
export function describeInChromium(file: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  if (process.env.CI) {
    it('has Chromium in CI', () => {
      throw new Error(`No Chromium at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);
    });
  } else {
    // Straight to stderr: jest keeps a skipped file's console output to itself when it runs files
    // in parallel.
    process.stderr.write(
      `${file} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`,
    );
  }
  return describe.skip;
}

/** A headless Chromium that reaches nothing on its own (no background networking). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
