// Headless Debian chromium driven by playwright-core (from the e2e cache; it downloads no browser).
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHROMIUM } from './env.mjs';
import { privateEnv } from './server.mjs';

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

/**
 * A fresh persistent context in `profileDir` (playwright rejects --user-data-dir in args) with a
 * private HOME, since chromium writes crash reports and dconf into $HOME.
 */
export async function launchBrowser(paths, profileDir, home) {
  const { chromium } = await import(pathToFileURL(paths.playwrightCore).href);
  rmSync(profileDir, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: FLAGS,
    env: privateEnv(paths, home),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}
