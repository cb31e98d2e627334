import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';

/**
 * Debian's chromium for the console's browser tests, driven by playwright-core: headless, with a
 * fresh profile and everything that would reach the internet turned off (this network is closed;
 * without these flags Chromium's background connections are refused many at a time).
 */

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The password the browser suites set through their invitation links. */
export const PASSWORD = 'a long passphrase for the console';

/** What code passed to page.evaluate sees: the page's globals (the tests compile without the DOM types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type InPage = any;

if (!existsSync(CHROMIUM) && process.env.REQUIRE_BROWSER === '1')
  throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is not installed (apt-get install -y chromium)`);

/** The skip reason of a browser suite where chromium is missing (and REQUIRE_BROWSER is not set). */
export const skipWithoutBrowser: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found: apt-get install -y chromium (.ci/run does)`;

/** A headless browser on a fresh profile folder. */
export function launchBrowser(profile: string, options: { acceptDownloads?: boolean } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
    ...options,
  });
}
