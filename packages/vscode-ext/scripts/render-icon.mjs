// Renders media/agentm-marketplace.svg to the 128×128 marketplace icon media/agentm.png with headless
// chromium (playwright-core from the e2e tool cache). Run after editing the SVG; the PNG is committed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM } from '../../../test/vscode/env.mjs';
import { ensureAll } from '../../../test/vscode/setup.mjs';

const media = fileURLToPath(new URL('../media/', import.meta.url));
const { chromium } = await import(pathToFileURL(ensureAll(['tools']).playwrightCore).href);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  const svg = readFileSync(join(media, 'agentm-marketplace.svg'), 'utf8');
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(media, 'agentm.png'), omitBackground: true });
  console.log(`wrote ${join(media, 'agentm.png')}`);
} finally {
  await browser.close();
}
