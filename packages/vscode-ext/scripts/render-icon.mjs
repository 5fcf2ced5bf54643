// Renders media/agentm-marketplace.svg to the PNG icons that are committed: the 128×128 VS Code
// Marketplace icon media/agentm.png and the 512×512 Claude Code plugin icon
// plugins/claude-code/.claude-plugin/icon.png (the plugin directory asks for a square PNG of 512 to
// 2048 px), with headless chromium (playwright-core from the e2e tool cache). Run after editing the SVG.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM } from '../../../test/vscode/env.mjs';
import { ensureAll } from '../../../test/vscode/setup.mjs';

const media = fileURLToPath(new URL('../media/', import.meta.url));
const TARGETS = [
  { size: 128, path: join(media, 'agentm.png') },
  { size: 512, path: fileURLToPath(new URL('../../../plugins/claude-code/.claude-plugin/icon.png', import.meta.url)) },
];
const { chromium } = await import(pathToFileURL(ensureAll(['tools']).playwrightCore).href);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const svg = readFileSync(join(media, 'agentm-marketplace.svg'), 'utf8');
  for (const { size, path } of TARGETS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = svg.replace('width="128" height="128"', `width="${size}" height="${size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.locator('svg').screenshot({ path, omitBackground: true });
    await page.close();
    console.log(`wrote ${path} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
