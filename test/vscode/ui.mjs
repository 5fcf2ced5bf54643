// The UI test: a person's path through the installed .vsix in the real workbench, in headless chromium.
// Steps depend on each other, so the first failure stops the walk (and leaves a -fail screenshot).
import { join } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { log } from './env.mjs';

const SIDEBAR = '.part.sidebar';

async function texts(page, selector) {
  return (await page.locator(selector).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** Resolves with one `{name, ok, error?}` per step; `vault` is the memory root the user settings point at. */
export async function runUiTest({ paths, server, dir, folder, vault, artifacts }) {
  const { context, page } = await launchBrowser(paths, join(dir, 'chrome-ui'), server.home);
  const results = [];
  const step = async (name, fn) => {
    if (results.some((r) => !r.ok)) return;
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name, ok: true });
      log(`ui ✔ ${name} (${Date.now() - t0} ms)`);
    } catch (error) {
      results.push({ name, ok: false, error: error.message });
      log(`ui ✘ ${name}: ${error.message}`);
    }
  };
  try {
    await page.goto(`${server.base}/?folder=${encodeURIComponent(folder)}`);

    await step('the AgentM activity-bar icon opens the AgentM container', async () => {
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      const icon = page.locator('.part.activitybar .action-item a[aria-label^="AgentM"]').first();
      await icon.waitFor({ timeout: 60_000 });
      await icon.click();
      const title = page.locator(`${SIDEBAR} .composite.title`).first();
      await title.waitFor({ timeout: 20_000 });
      expect(/AgentM/i.test(await title.innerText()), `sidebar title is '${await title.innerText()}'`);
    });

    await step('the container shows the Plan and Recall views with their welcome content', async () => {
      await page.locator(`${SIDEBAR} .welcome-view-content`).nth(1).waitFor({ timeout: 30_000 });
      const headers = await texts(page, `${SIDEBAR} .pane-header .title`);
      expect(headers.some((h) => /^Plan$/i.test(h)) && headers.some((h) => /^Recall$/i.test(h)), `view headers: ${JSON.stringify(headers)}`);
      const welcome = await texts(page, `${SIDEBAR} .welcome-view-content`);
      log(`ui views ${JSON.stringify(headers)} welcome ${JSON.stringify(welcome)}`);
      expect(welcome.some((w) => w.includes('Plans and progress are not available') && w.includes('Show storage doctor')), `Plan welcome: ${JSON.stringify(welcome)}`);
      expect(welcome.some((w) => w.includes('Recall is not available') && w.includes('Set phase')), `Recall welcome: ${JSON.stringify(welcome)}`);
    });

    await step('the status bar shows the selected backend', async () => {
      const item = page.locator('.part.statusbar .statusbar-item', { hasText: 'AgentM: vault' }).first();
      await item.waitFor({ timeout: 20_000 });
    });

    await step('"AgentM: Show storage doctor" runs from the palette and its notification names the backend', async () => {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 20_000 });
      await page.keyboard.type('AgentM: Show storage doctor', { delay: 5 });
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show storage doctor' }).first().waitFor({ timeout: 20_000 });
      await page.keyboard.press('Enter');
      // The smoke-test driver suppresses toasts; the notification center still lists every message.
      await page.locator('#status\\.notifications').click();
      const message = page.locator('.notifications-center .notification-list-item-message', { hasText: 'AgentM doctor' }).first();
      await message.waitFor({ timeout: 20_000 });
      const text = (await message.innerText()).trim();
      log(`ui notification: ${text}`);
      expect(text.includes("selected backend 'vault'") && text.includes(vault), `doctor notification: ${text}`);
    });

    await step('a screenshot of the AgentM container is saved', async () => {
      await page.mouse.move(700, 450); // no hover tooltip over the notification
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'ui-agentm.png') });
      log(`ui screenshot: ${join(artifacts, 'ui-agentm.png')}`);
    });
  } finally {
    if (results.some((r) => !r.ok)) await page.screenshot({ path: join(artifacts, 'ui-agentm-fail.png') }).catch(() => undefined);
    await context.close();
  }
  return results;
}
