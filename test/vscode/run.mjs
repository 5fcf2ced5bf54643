// `pnpm run check:vscode`: the extension in a real VS Code (code-server's 1.139 workbench + Node
// extension host), driven by headless chromium. Needs the build (`pnpm run build`) first.
//   1. setup (cached) · 2. integration tests inside the extension host (development build)
//   3. package the .vsix · 4. UI test against the installed .vsix · 5. "vscode: N passed, N failed".
// Each phase gets its own code-server with a private HOME/user-data/extensions dir, always stopped.
// usage: node test/vscode/run.mjs [--only itest|ui]
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageExtension } from '../../packages/vscode-ext/scripts/package.mjs';
import { ARTIFACTS, cleanEnv, EXTENSION_DIR, log } from './env.mjs';
import { runExtensionTests } from './integration.mjs';
import { startCodeServer } from './server.mjs';
import { ensureAll } from './setup.mjs';
import { startCluster } from '../postgres/cluster.mjs';
import { ensurePostgres } from '../postgres/setup.mjs';
import { runUiTest } from './ui.mjs';

const OVERALL_TIMEOUT_MS = 10 * 60_000;
/** A language model provider the integration tests register through the real vscode.lm API. */
const FAKE_LM_DIR = fileURLToPath(new URL('./fake-lm', import.meta.url));

/**
 * The fake model as an installed extension (code-server loads one development extension per window: the
 * extension under test), packaged with the pinned vsce into the run's scratch dir.
 */
function packageFakeModel() {
  const vsix = join(scratch, 'agentm-itest-fake-lm.vsix');
  const r = spawnSync(
    process.execPath,
    [paths.vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
    { cwd: FAKE_LM_DIR, env: cleanEnv(process.env), encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`packaging the fake language model failed: ${r.stderr || r.stdout}`);
  return vsix;
}
const servers = new Set();
const scratch = mkdtempSync(join(tmpdir(), 'agentm-vscode-e2e-'));
/** The PostgreSQL cluster of the postgres integration test (started here, unless AGENTM_TEST_PG_URL names a server). */
let cluster;

async function cleanup() {
  await Promise.all([...servers].map((s) => s.stop()));
  servers.clear();
  cluster?.stop();
  cluster = undefined;
  rmSync(scratch, { recursive: true, force: true });
}

async function withServer(name, folder, prepare, body) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const server = await startCodeServer(paths, dir, folder, prepare);
  servers.add(server);
  try {
    return await body(server, dir);
  } finally {
    servers.delete(server);
    await server.stop();
  }
}

/** mocha's spec reporter ends with "N passing" / "N failing"; count those, not our guesses. */
function mochaCounts(lines) {
  const n = (re) => Number(lines.map((l) => re.exec(l)?.[1]).find((v) => v !== undefined) ?? 0);
  return { passed: n(/^\s*(\d+) passing/), failed: n(/^\s*(\d+) failing/) };
}

function workspace(name) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'README.md'), `# ${name}\n`);
  return dir;
}

for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => cleanup().finally(() => process.exit(130)));
const watchdog = setTimeout(() => {
  console.error(`vscode e2e: still running after ${OVERALL_TIMEOUT_MS / 60_000} min; stopping`);
  cleanup().finally(() => process.exit(1));
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

/** Integration tests in the extension host, on the development build; resolves with mocha's counts. */
async function integrationPhase(testsPath) {
  // The postgres test reads its server from AGENTM_E2E_PG_URL (code-server's environment is this one's).
  if (!process.env.AGENTM_E2E_PG_URL) {
    if (process.env.AGENTM_TEST_PG_URL) process.env.AGENTM_E2E_PG_URL = process.env.AGENTM_TEST_PG_URL;
    else {
      try {
        log(`postgres for the integration test: ${ensurePostgres()}`);
        cluster = await startCluster();
        process.env.AGENTM_E2E_PG_URL = cluster.adminUrl;
      } catch (error) {
        // PostgreSQL cannot be installed or started here (not root, no apt): that one test says it is skipped.
        log(`no PostgreSQL for the postgres integration test: ${error.message}`);
      }
    }
  }
  const folder = workspace('itest-workspace');
  const itest = await withServer('itest', folder, { vsix: packageFakeModel() }, (server, dir) =>
    runExtensionTests({ paths, server, dir, devPath: EXTENSION_DIR, testsPath, folder }),
  );
  const counts = mochaCounts(itest.lines);
  if (itest.code !== 0 && counts.failed === 0) counts.failed = 1; // crashed or timed out before mocha reported
  const activation = itest.lines.find((l) => l.startsWith('[agentm-activation]'));
  if (activation) log(`activation (extension's own marks): ${activation.slice('[agentm-activation] '.length)}`);
  return counts;
}

const UI_PLAN = `---
goal: show the plan in the sidebar
---

- [x] Parse the plan [id:: parse]
- [/] Draw the tree [id:: draw] [after:: parse] [agent:: 4242@elsewhere]
- [ ] Ship it [id:: ship] [after:: draw]
`;
/** A plan whose one step needs a model (there is none in the UI test): its run fails, offering the model settings. */
const UI_ASK_PLAN = '---\ngoal: ask the model\n---\n\n- [ ] Summarise the notes about watchers [id:: summarise]\n';
/** A plan whose command fails: its run fails, offering a retry and the log. */
const UI_BROKEN_PLAN = '---\ngoal: fail on purpose\n---\n\n- [ ] Check the build [id:: check] [cmd:: false]\n';
/** A plan that runs long enough to watch (and stop) from the status bar. */
const UI_SLOW_PLAN = '---\ngoal: wait a while\n---\n\n- [ ] Wait for the build [id:: wait] [cmd:: sleep 60]\n';
const UI_NOTE =
  '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [watcher]\n---\n\n# Debounce the file watcher\n\nWatchers fire twice on rename; debounce them by 150 ms.\n';

/** A vault laid out like agentm's with one project (a plan, a note) and a workspace bound to it. */
function uiWorld() {
  const vault = join(scratch, 'ui-vault');
  const project = join(vault, 'desk', 'projects', 'ui-demo');
  mkdirSync(join(project, '_harness'), { recursive: true });
  mkdirSync(join(project, 'fix'), { recursive: true });
  writeFileSync(join(project, '_harness', 'PLAN.md'), UI_PLAN);
  writeFileSync(join(project, '_harness', 'PLAN-ask.md'), UI_ASK_PLAN);
  writeFileSync(join(project, '_harness', 'PLAN-slow.md'), UI_SLOW_PLAN);
  writeFileSync(join(project, '_harness', 'PLAN-broken.md'), UI_BROKEN_PLAN);
  writeFileSync(join(project, 'fix', 'flaky-watcher.md'), UI_NOTE);
  const folder = workspace('ui-workspace');
  mkdirSync(join(folder, '.harness'));
  writeFileSync(join(folder, '.harness', 'project.json'), '{"vault_project": "ui-demo"}\n');
  return { vault, folder };
}

/**
 * Packages the .vsix, installs it in a fresh server whose agentm config (the shared `.agentm-config.json`
 * in its private HOME, as `agentm init` writes it) names the vault, and walks the UI.
 */
async function uiPhase() {
  const { vsix, bytes } = packageExtension();
  log(`packaged ${vsix} (${(bytes / 1024).toFixed(1)} KiB)`);
  const { vault, folder } = uiWorld();
  const steps = await withServer(
    'ui',
    folder,
    {
      homeFiles: {
        '.claude/.agentm-config.json': JSON.stringify({
          schema_version: 2,
          'storage.backend': 'vault',
          'plugins.obsidian-vault.vault_path': vault,
        }),
      },
      vsix,
    },
    (server, dir) => runUiTest({ paths, server, dir, folder, vault, artifacts: ARTIFACTS }),
  );
  return { passed: steps.filter((r) => r.ok).length, failed: steps.filter((r) => !r.ok).length };
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
let paths;
let passed = 0;
let failed = 0;
const t0 = Date.now();
try {
  paths = ensureAll();
  const testsPath = join(EXTENSION_DIR, 'out', 'test', 'integration');
  if (!existsSync(join(EXTENSION_DIR, 'dist', 'extension.js')) || !existsSync(join(testsPath, 'index.js'))) {
    throw new Error('the extension or its tests are not built; run `npx --yes pnpm@10.34.8 run build` first');
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  // The UI phase packages after the integration phase, which runs the development build (source maps).
  const phases = [only !== 'ui' && (() => integrationPhase(testsPath)), only !== 'itest' && uiPhase].filter(Boolean);
  for (const phase of phases) {
    const counts = await phase();
    passed += counts.passed;
    failed += counts.failed;
  }
} catch (error) {
  console.error(`vscode e2e: ${error.message}`);
  failed += 1;
} finally {
  await cleanup();
}
log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s; artifacts in ${ARTIFACTS}`);
console.log(`vscode: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
