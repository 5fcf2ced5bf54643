// Starts code-server (VS Code 1.139 server + web workbench) on 127.0.0.1 with a private HOME,
// user-data-dir and extensions-dir, and stops it with all its descendants.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { cleanEnv, log } from './env.mjs';

/** User settings that keep the workbench offline-quiet: no agent host / copilot runtime, no gallery, no welcome. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': 'off', // false is migrated to 'off' by a settings write at startup
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The environment for code-server and chromium: they write into $HOME even with --user-data-dir. */
export function privateEnv(paths, home) {
  const env = {
    ...cleanEnv(),
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  env.PATH = `${paths.nodeBinDir}:${process.env.PATH}`;
  for (const k of ['MEMORY_VAULT_PATH', 'AGENTM_DEVICE_LOCAL_ROOT', 'AGENTM_INSTALL_PREFIX', 'XDG_DATA_HOME'])
    delete env[k];
  // A developer's model endpoint must not answer the tests' LLM steps (they expect none configured).
  for (const k of Object.keys(env)) if (/^AGENTM_(LLM|EMBED|CHAT)_/.test(k)) delete env[k];
  return env;
}

function codeServerArgs(dir) {
  return [
    '--config',
    join(dir, 'config.yaml'),
    '--user-data-dir',
    join(dir, 'user-data'),
    '--extensions-dir',
    join(dir, 'extensions'),
  ];
}

/** Installs a .vsix into the run's extensions dir (code-server cannot install a folder). */
export function installVsix(paths, dir, vsix) {
  execFileSync(paths.codeServer, [...codeServerArgs(dir), '--install-extension', vsix, '--force'], {
    env: privateEnv(paths, join(dir, 'home')),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
}

/**
 * Starts code-server for one run. `dir` is the run's private area (home, user-data, extensions, log);
 * `prepare.settings` replaces the quiet user settings; `prepare.machineSettings` go to the remote
 * machine's settings (a remote window ignores machine-scoped settings, such as `agentm.vault.path`, in
 * user settings); `prepare.homeFiles` are written under the private HOME (agentm's shared config);
 * `prepare.vsix` is installed first.
 * Resolves once /healthz answers; the result's stop() ends it and its children.
 */
export async function startCodeServer(paths, dir, folder, prepare = {}) {
  const home = join(dir, 'home');
  mkdirSync(join(dir, 'user-data', 'User'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const settings = prepare.settings ?? QUIET_SETTINGS;
  writeFileSync(join(dir, 'user-data', 'User', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  if (prepare.machineSettings) {
    mkdirSync(join(dir, 'user-data', 'Machine'), { recursive: true });
    writeFileSync(
      join(dir, 'user-data', 'Machine', 'settings.json'),
      `${JSON.stringify(prepare.machineSettings, null, 2)}\n`,
    );
  }
  for (const [path, text] of Object.entries(prepare.homeFiles ?? {})) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  }
  if (prepare.vsix) installVsix(paths, dir, prepare.vsix);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = join(dir, 'code-server.log');
  const out = openSync(logFile, 'a');
  // enable-smoke-test-driver: a built workbench ignores the extensionTestsPath payload without it
  // (it also suppresses toasts: the UI test reads the notification center). A short reconnection grace
  // time makes extension hosts of closed tabs exit in seconds, not hours.
  const child = spawn(
    paths.codeServer,
    [
      ...codeServerArgs(dir),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--reconnection-grace-time',
      '10',
      '--vscode-option',
      'enable-smoke-test-driver',
      folder,
    ],
    { env: privateEnv(paths, home), stdio: ['ignore', out, out], detached: true },
  );
  const server = { base, pid: child.pid, logFile, home, stop: () => stopTree(child.pid) };
  const t0 = Date.now();
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  while (Date.now() - t0 < 60_000) {
    const status = await fetch(`${base}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) {
      log(`code-server pid ${child.pid} on ${base} after ${Date.now() - t0} ms (log ${logFile})`);
      return server;
    }
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 100))]);
    if (gone !== undefined) throw new Error(`code-server exited with ${gone} before answering; see ${logFile}`);
  }
  await server.stop();
  throw new Error(`code-server did not answer ${base}/healthz within 60 s; see ${logFile}`);
}

function descendants(pid) {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  const kids = out
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter(Boolean);
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to the process group and every descendant (some leave the group), SIGKILL what is left after 5 s. */
export async function stopTree(pid) {
  if (!pid || !alive(pid)) return;
  const all = [pid, ...descendants(pid)];
  const signal = (sig) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone already
    }
    for (const p of all) {
      try {
        process.kill(p, sig);
      } catch {
        // that process has exited
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 5_000;
  while (all.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const left = all.filter(alive);
  if (left.length) signal('SIGKILL');
  log(
    `code-server ${pid} and ${all.length - 1} descendants stopped${left.length ? ` (${left.length} needed SIGKILL)` : ''}`,
  );
}
