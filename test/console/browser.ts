/**
 * Headless Chromium for the console tests: Debian's `chromium` (installed by `.ci/run`), driven
 * by playwright-core, which downloads no browser of its own. Screenshots of each screen are kept
 * in `.test-tmp/console-screenshots/` (ignored by git) for a person to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../support/repo-root.js';

/** `SVC_TEST_CHROMIUM` overrides where the browser is, for machines that keep it elsewhere. */
const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

export const SCREENSHOTS = path.join(repoRoot(), '.test-tmp', 'console-screenshots');

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}
