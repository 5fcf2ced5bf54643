// The UI test: a person's path through the installed .vsix in the real workbench, in headless chromium.
// Steps depend on each other, so the first failure stops the walk (and leaves a -fail screenshot).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { log } from './env.mjs';

const SIDEBAR = '.part.sidebar';

/** The sidebar pane of the view titled `title` (headers may be upper-cased by the theme). */
const pane = (page, title) =>
  page
    .locator(`${SIDEBAR} .pane`)
    .filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(`^${title}$`, 'i') }) });

async function rowTexts(locator) {
  return (await locator.locator('.monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

async function texts(page, selector) {
  return (await page.locator(selector).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** Opens the command palette and types `text` (any open quick input is closed first). */
async function openPalette(page, text) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 20_000 });
  await page.keyboard.type(text, { delay: 5 });
}

/** Runs a command from the palette by its full title (`AgentM: …`). */
async function runFromPalette(page, title) {
  await openPalette(page, title);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.click();
}

/** The palette's rows for `query`, once the list has settled (read twice, 400 ms apart, the same). */
async function paletteRows(page, query) {
  await openPalette(page, query);
  const read = () => texts(page, '.quick-input-widget .monaco-list-row');
  let rows = await read();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(400);
    const again = await read();
    if (JSON.stringify(again) === JSON.stringify(rows) && rows.length > 0) break;
    rows = again;
  }
  await page.keyboard.press('Escape');
  return rows;
}

/**
 * The notification-center entry whose message contains `text`. The smoke-test driver suppresses toasts;
 * the center still lists every notification, with its buttons. An empty center closes by itself, so
 * open it (again) until the message is there.
 */
async function centerNotification(page, text, timeout = 20_000) {
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  const deadline = Date.now() + timeout;
  while (!(await item.isVisible())) {
    if (Date.now() > deadline) throw new Error(`no notification '${text}' in the notification center`);
    if (!(await page.locator('.notifications-center.visible').isVisible()))
      await page.locator('#status\\.notifications').click();
    await page.waitForTimeout(300);
  }
  return item;
}

/** Clicks a plan row's inline "Run plan" action in the Plan view. */
async function runPlanFromTree(page, label) {
  const row = pane(page, 'Plan').locator('.monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.hover();
  await row.locator('.action-label[aria-label*="Run plan"]').first().click();
}

/** The text of the active editor's visible lines. */
async function editorLines(page) {
  return (await page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line').allInnerTexts())
    .map((l) => l.replace(/\u00a0/g, ' '))
    .filter((l) => l.trim() !== '');
}

/**
 * Resolves with one `{name, ok, error?}` per step; `vault` is the memory root agentm's shared config names, `folder` the workspace bound to its project `ui-demo` (a plan and a note, see run.mjs).
 */
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

    await step('the Plan view lists the plan and its steps from the vault', async () => {
      const headers = await texts(page, `${SIDEBAR} .pane-header .title`);
      expect(
        headers.some((h) => /^Plan$/i.test(h)) && headers.some((h) => /^Recall$/i.test(h)),
        `view headers: ${JSON.stringify(headers)}`,
      );
      const rows = pane(page, 'Plan').locator('.monaco-list-row');
      await rows.filter({ hasText: 'Draw the tree' }).first().waitFor({ timeout: 30_000 });
      const items = await rowTexts(pane(page, 'Plan'));
      log(`ui Plan items ${JSON.stringify(items)}`);
      expect(
        items[0]?.startsWith('show the plan in the sidebar') && /PLAN · active · open · 1\/3 done/.test(items[0]),
        `the plan row does not show the plan's goal: ${items[0]}`,
      );
      for (const title of ['Parse the plan', 'Draw the tree', 'Ship it'])
        expect(
          items.some((i) => i.startsWith(title)),
          `no step '${title}' in ${JSON.stringify(items)}`,
        );
      expect(
        items.some((i) => i.startsWith('Ship it') && i.includes('after draw')),
        `the after-dependency is not shown: ${JSON.stringify(items)}`,
      );
      const spinning = await pane(page, 'Plan')
        .locator('.monaco-list-row', { hasText: 'Draw the tree' })
        .locator('.codicon-loading.codicon-modifier-spin')
        .count();
      expect(spinning === 1, 'the running step does not spin');
    });

    await step('the Recall view shows phase recall with the project note', async () => {
      await pane(page, 'Recall')
        .locator('.monaco-list-row', { hasText: 'Debounce the file watcher' })
        .first()
        .waitFor({ timeout: 30_000 });
      const items = await rowTexts(pane(page, 'Recall'));
      log(`ui Recall items ${JSON.stringify(items)}`);
      expect(
        items.some((i) => /^Phase: work/.test(i)),
        `no phase section: ${JSON.stringify(items)}`,
      );
    });

    await step('the status bar shows the selected backend', async () => {
      const item = page.locator('.part.statusbar .statusbar-item', { hasText: 'AgentM: vault' }).first();
      await item.waitFor({ timeout: 20_000 });
    });

    await step('"AgentM: Show storage doctor" opens the report as a document, one whole check per line', async () => {
      await runFromPalette(page, 'AgentM: Show storage doctor');
      await page.locator('.tabs-container .tab', { hasText: 'AgentM doctor' }).first().waitFor({ timeout: 20_000 });
      // The report wraps long checks (each is one line of the document): read it back as one text.
      const deadline = Date.now() + 20_000;
      let report = (await editorLines(page)).join('');
      while (!report.includes("is project 'ui-demo'") && Date.now() < deadline) {
        await page.waitForTimeout(200);
        report = (await editorLines(page)).join('');
      }
      log(`ui doctor report ${report}`);
      expect(/^AgentM doctor — .* — \d+ checks: /.test(report), `no report header: ${report.slice(0, 200)}`);
      expect(report.includes("storage [OK] selected backend 'vault'"), `no storage check: ${report}`);
      expect(report.includes(vault), `the report does not name the vault ${vault}: ${report}`);
      expect(report.includes("is project 'ui-demo'"), `no project check: ${report}`);
      expect(report.includes('agreement [OK] this editor and the agents'), `no agreement check: ${report}`);
      await page.mouse.move(700, 450);
      await page.screenshot({ path: join(artifacts, 'ui-doctor.png') });
    });

    await step('"AgentM: Recall…" from the palette searches as you type and opens the note', async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 20_000 });
      await page.keyboard.type('AgentM: Recall…', { delay: 5 });
      // "Focus on Recall View" matches too: pick the command itself.
      await page
        .locator('.quick-input-widget .monaco-list-row', { hasText: /AgentM: Recall…$/ })
        .first()
        .click();
      await page
        .locator('.quick-input-widget .quick-input-title', { hasText: 'AgentM: Recall' })
        .waitFor({ timeout: 20_000 });
      await page.keyboard.type('rename', { delay: 20 });
      const hit = page
        .locator('.quick-input-widget .monaco-list-row', { hasText: 'Debounce the file watcher' })
        .first();
      await hit.waitFor({ timeout: 20_000 });
      log(`ui recall result: ${(await hit.innerText()).replace(/\s+/g, ' ')}`);
      await page.screenshot({ path: join(artifacts, 'ui-recall.png') });
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab', { hasText: 'flaky-watcher.md' }).first().waitFor({ timeout: 20_000 });
      await pane(page, 'Recall')
        .locator('.monaco-list-row', { hasText: 'Results for "rename"' })
        .first()
        .waitFor({ timeout: 20_000 });
    });

    await step('a screenshot of the AgentM container is saved', async () => {
      await page.mouse.move(700, 450); // no hover tooltip over the notification
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'ui-agentm.png') });
      log(`ui screenshot: ${join(artifacts, 'ui-agentm.png')}`);
    });

    await step('"AgentM: Get started" opens the walkthrough: vault, bind, save, run', async () => {
      await runFromPalette(page, 'AgentM: Get started');
      const container = page.locator('.gettingStartedContainer').first();
      await container.waitFor({ timeout: 20_000 });
      await container.getByText('Get started with AgentM').first().waitFor({ timeout: 20_000 });
      const steps = await texts(page, '.gettingStartedContainer .getting-started-step .step-title');
      log(`ui walkthrough steps ${JSON.stringify(steps)}`);
      for (const title of ['Choose the vault', 'Bind this folder to a project', 'Save a first memory', 'Run a plan'])
        expect(steps.includes(title), `no walkthrough step '${title}' in ${JSON.stringify(steps)}`);
      await page.mouse.move(700, 450);
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(artifacts, 'ui-walkthrough.png') });
      await runFromPalette(page, 'View: Close All Editors');
    });

    await step(
      '"Stop plan" and "Retry failed step" are not in the palette while no plan runs and none failed',
      async () => {
        const control = await paletteRows(page, 'AgentM: Run plan');
        expect(
          control.some((r) => r.includes('AgentM: Run plan')),
          `the palette does not list AgentM's commands: ${control}`,
        );
        const stop = await paletteRows(page, 'AgentM: Stop plan');
        const retry = await paletteRows(page, 'AgentM: Retry failed step');
        expect(!stop.some((r) => r.includes('AgentM: Stop plan')), `Stop plan is offered: ${JSON.stringify(stop)}`);
        expect(!retry.some((r) => r.includes('Retry failed step')), `Retry is offered: ${JSON.stringify(retry)}`);
      },
    );

    await step('a running plan shows in the status bar (steps done / total), and "Stop plan" stops it', async () => {
      await runPlanFromTree(page, 'wait a while');
      // The step's command was never approved here: the modal asks, naming the command.
      const dialog = page.locator('.monaco-dialog-box').first();
      await dialog.waitFor({ timeout: 20_000 });
      expect(
        (await dialog.innerText()).includes('sleep 60'),
        `the approval does not name the command: ${await dialog.innerText()}`,
      );
      await dialog.locator('.monaco-button', { hasText: 'Run and remember' }).first().click();
      const item = page.locator('.part.statusbar .statusbar-item', { hasText: 'AgentM: slow 0/1' }).first();
      await item.waitFor({ timeout: 20_000 });
      await page.mouse.move(700, 450);
      await page.screenshot({ path: join(artifacts, 'ui-run-status.png') });
      const offered = await paletteRows(page, 'AgentM: Stop plan');
      log(`ui palette while running ${JSON.stringify(offered)}`);
      await runFromPalette(page, 'AgentM: Stop plan');
      await item.waitFor({ state: 'detached', timeout: 20_000 });
    });

    await step(
      'a run that needs a model, with none, is refused before it starts, offering Configure model',
      async () => {
        // The tree re-reads the plans after the stop: let it settle, so the click reaches this row's action.
        await page.waitForTimeout(1500);
        await runPlanFromTree(page, 'ask the model');
        const notice = await centerNotification(page, 'plan ask was not started', 60_000);
        const message = (await notice.locator('.notification-list-item-message').innerText()).trim();
        const buttons = await texts(
          page,
          '.notifications-center .notification-list-item-buttons-container .monaco-button',
        );
        log(`ui refused-run notification: ${message} ${JSON.stringify(buttons)}`);
        expect(/needs a chat model/.test(message), `the notification does not say why: ${message}`);
        for (const action of ['Configure model', 'Open plan'])
          expect(buttons.includes(action), `no '${action}' button: ${JSON.stringify(buttons)}`);
        await page.mouse.move(300, 300);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(artifacts, 'ui-refused-run.png') });
        await notice.locator('.monaco-button', { hasText: 'Open plan' }).first().click();
        await page.locator('.tabs-container .tab', { hasText: 'PLAN-ask.md' }).first().waitFor({ timeout: 20_000 });
      },
    );

    await step('a failed run is an error notification with Retry step and Show log', async () => {
      await runPlanFromTree(page, 'fail on purpose');
      const dialog = page.locator('.monaco-dialog-box').first();
      await dialog.waitFor({ timeout: 20_000 });
      await dialog.locator('.monaco-button', { hasText: 'Run and remember' }).first().click();
      const notice = await centerNotification(page, "plan 'fail on purpose' (broken) failed at step 'check'", 60_000);
      const buttons = await texts(
        page,
        '.notifications-center .notification-list-item-buttons-container .monaco-button',
      );
      for (const action of ['Retry step', 'Show log'])
        expect(buttons.includes(action), `no '${action}' button: ${JSON.stringify(buttons)}`);
      await page.screenshot({ path: join(artifacts, 'ui-failed-run.png') });
      await notice.locator('.monaco-button', { hasText: 'Show log' }).first().click();
      await page
        .locator('.tabs-container .tab', { hasText: 'progress-broken.md' })
        .first()
        .waitFor({ timeout: 20_000 });
      const retry = await paletteRows(page, 'AgentM: Retry failed step');
      expect(
        retry.some((r) => r.includes('Retry failed step')),
        `Retry is not offered after a failure: ${retry}`,
      );
    });

    await step('unbinding the project shows the welcome views, each linking to its command', async () => {
      rmSync(join(folder, '.harness', 'project.json'));
      const welcome = page.locator(`${SIDEBAR} .welcome-view-content`);
      await welcome.filter({ hasText: 'No AgentM project detected' }).nth(1).waitFor({ timeout: 20_000 });
      const contents = await texts(page, `${SIDEBAR} .welcome-view-content`);
      log(`ui welcome ${JSON.stringify(contents)}`);
      expect(
        contents.some((w) => w.includes('.harness/project.json') && w.includes('Show storage doctor')),
        `Plan welcome: ${JSON.stringify(contents)}`,
      );
      expect(
        contents.some((w) => w.includes('search all memory') && w.includes('Recall…')),
        `Recall welcome: ${JSON.stringify(contents)}`,
      );
      await page.screenshot({ path: join(artifacts, 'ui-welcome.png') });
    });
  } finally {
    if (results.some((r) => !r.ok))
      await page.screenshot({ path: join(artifacts, 'ui-agentm-fail.png') }).catch(() => undefined);
    await context.close();
  }
  return results;
}
