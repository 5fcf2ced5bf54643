// Desktop VS Code runs of the integration tests (`pnpm --filter agentm-vscode test:desktop`), for machines
// that can download VS Code. Here the same tests run in code-server instead: test/vscode/run.mjs.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@vscode/test-cli';

const scratch = mkdtempSync(join(tmpdir(), 'agentm-vscode-desktop-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);

export default defineConfig({
  label: 'integration',
  // The highest VS Code the manifest's engines.vscode allows is tested by code-server (1.139); desktop
  // runs check the floor the manifest promises.
  version: '1.100.0',
  files: 'out/test/integration/*.test.js',
  workspaceFolder: workspace,
  // The lock holder and the doctor must not touch the real ~/.cache, ~/.agentm or ~/.claude.
  env: {
    XDG_CACHE_HOME: join(scratch, 'cache'),
    AGENTM_DEVICE_LOCAL_ROOT: join(scratch, 'device-local'),
    AGENTM_INSTALL_PREFIX: join(scratch, 'prefix'),
  },
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  mocha: { ui: 'tdd', timeout: 30_000, color: true },
});
