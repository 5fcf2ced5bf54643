// Runs integration tests inside code-server's extension host, as @vscode/test-electron's runTests does
// on desktop: the workbench URL carries extensionDevelopmentPath + extensionTestsPath in its payload
// (honoured because the server runs with enable-smoke-test-driver), the extension host's console is
// forwarded through window.codeAutomationLog, and its exit code comes back through codeAutomationExit.
import { join } from 'node:path';
import util from 'node:util';
import { launchBrowser } from './browser.mjs';
import { log } from './env.mjs';

/** Known-harmless workbench and offline noise; everything else the extension host prints is shown. */
const NOISE =
  /authentication provider 'github'|connection token|Creating a socket|grace time|Service Worker|builtin extensions cache|AgentHost|AccountPolicy|ChatModelSelection|ENOTFOUND|^Canceled|open-vsx|vsda/;

/** The workbench URL; a payload value that is an array becomes one entry per item (several development extensions). */
export function workbenchUrl(base, folder, payload) {
  const remote = (p) => `vscode-remote://${new URL(base).host}${p}`;
  const entries = Object.entries(payload).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((item) => [k, k.endsWith('Path') ? remote(item) : item]),
  );
  return `${base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(entries))}`;
}

/**
 * Runs the tests at `testsPath` (a module exporting run()) against the extension folder `devPath` (or
 * several: the first is the extension under test), in a window on `folder`. Resolves with the exit code (0 pass, 1 fail, 'timeout') and every forwarded line.
 */
export async function runExtensionTests({ paths, server, dir, devPath, testsPath, folder, timeoutMs = 240_000 }) {
  const t0 = Date.now();
  const { context, page } = await launchBrowser(paths, join(dir, 'chrome-itest'), server.home);
  const lines = [];
  try {
    let exit;
    const exited = new Promise((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = util.format(...(args ?? [])).replace(/%c/g, '');
      if (NOISE.test(text)) return;
      lines.push(text);
      const at = `+${((Date.now() - t0) / 1000).toFixed(1)}s`;
      console.log(type === 'error' ? `  ${at} [exthost error] ${text}` : `  ${at} ${text}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => exit(code));
    page.on('pageerror', (e) => console.log(`  [page error] ${e.message}`));
    await page.goto(
      workbenchUrl(server.base, folder, {
        extensionDevelopmentPath: devPath,
        extensionTestsPath: testsPath,
        skipWelcome: 'true',
      }),
    );
    let timer;
    const code = await Promise.race([exited, new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
    clearTimeout(timer);
    log(`integration tests: extension host exit code ${code} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { code, lines };
  } finally {
    await context.close();
  }
}
