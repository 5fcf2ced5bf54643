// Installs what the VS Code e2e tests need, idempotently, into the e2e cache (see env.mjs):
//   apt: chromium, libkrb5-dev (root only) · Node 24 from the npm `node` package · code-server built
//   under Node 24 · playwright-core and @vscode/vsce.
// Each step ends by writing a stamp; a step whose stamp is present is skipped, so a warm cache costs
// a few stat calls. A step interrupted half-way has no stamp and starts over from an empty dir.
//
// usage: node test/vscode/setup.mjs [--only apt|node|code-server|tools]...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { aptInstall, hasTool, missingAptPackages, SetupError } from '../apt.mjs';
import {
  APT_PACKAGES,
  CODE_SERVER_VERSION,
  cleanEnv,
  NODE_VERSION,
  PLAYWRIGHT_CORE_VERSION,
  VSCE_VERSION,
  log,
  toolPaths,
} from './env.mjs';

export { SetupError };

/** chromium (the browser) and libkrb5-dev (code-server's kerberos module compiles against gssapi.h). */
export function ensureApt() {
  const wanted = [...APT_PACKAGES];
  if (!hasTool('make') || !hasTool('g++')) wanted.push('build-essential');
  if (!hasTool('python3')) wanted.push('python3');
  return aptInstall(missingAptPackages(wanted), 'the VS Code e2e tests');
}

const INSTALL_LOCK_STALE_MS = 20 * 60_000;
const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Holds `<dir>.lock` (an atomic mkdir) while `fn` runs, so two checkouts setting up the same cache at
 * once do not install into one directory together. A lock older than 20 min is a dead run's: taken over.
 */
function withInstallLock(dir, fn) {
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > INSTALL_LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else sleepSync(1_000);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs `install` in a fresh `dir` unless the stamp says this exact `version` is already there. */
function stamped(dir, version, install) {
  const stamp = join(dir, '.agentm-e2e-ok');
  const done = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === version;
  if (done()) return 'cached';
  return withInstallLock(dir, () => {
    if (done()) return 'installed by another run';
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"agentm-e2e-tools","private":true}\n');
    install();
    writeFileSync(stamp, version);
    return `installed ${version}`;
  });
}

/** npm install into `dir`, output to `<dir>.log` (shown, tail only, when it fails). */
export function npmInstall(dir, specs, extraEnv = {}) {
  const args = ['install', ...specs, '--no-audit', '--no-fund', '--no-save', '--foreground-scripts'];
  const r = spawnSync('npm', args, {
    cwd: dir,
    env: cleanEnv(process.env, extraEnv),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const logFile = `${dir}.log`;
  writeFileSync(logFile, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.error) throw new SetupError(`could not run npm: ${r.error.message}`);
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new SetupError(`npm install ${specs.join(' ')} failed in ${dir} (full log: ${logFile}):\n${tail}`);
  }
}

export function ensureNode(paths = toolPaths()) {
  return stamped(paths.nodeHome, NODE_VERSION, () => {
    npmInstall(paths.nodeHome, [`node@${NODE_VERSION}`]);
    if (!existsSync(paths.nodeExe))
      throw new SetupError(`node@${NODE_VERSION} installed no binary at ${paths.nodeExe}`);
  });
}

/**
 * code-server's postinstall refuses any Node but 24 (it reads npm's user agent, so Node 24 must be first
 * on PATH) and compiles native modules with node-gyp, which needs the Node 24 headers (the machine's
 * .npmrc may point nodedir at another Node's).
 */
export function ensureCodeServer(paths = toolPaths()) {
  return stamped(paths.codeServerHome, CODE_SERVER_VERSION, () => {
    const env = { PATH: `${paths.nodeBinDir}:${process.env.PATH}`, npm_config_nodedir: paths.nodeHeaders };
    npmInstall(paths.codeServerHome, [`code-server@${CODE_SERVER_VERSION}`], env);
    if (!existsSync(paths.codeServer)) throw new SetupError(`code-server installed no binary at ${paths.codeServer}`);
  });
}

/** playwright-core drives Debian's chromium (it downloads no browser); vsce packages the .vsix. */
export function ensureTools(paths = toolPaths()) {
  return stamped(paths.toolsHome, `${PLAYWRIGHT_CORE_VERSION}+${VSCE_VERSION}`, () => {
    npmInstall(paths.toolsHome, [`playwright-core@${PLAYWRIGHT_CORE_VERSION}`, `@vscode/vsce@${VSCE_VERSION}`], {
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    });
  });
}

const STEPS = { apt: ensureApt, node: ensureNode, 'code-server': ensureCodeServer, tools: ensureTools };

/** Runs the named steps (all by default) in order; returns the paths. Throws SetupError naming the fix. */
export function ensureAll(only = Object.keys(STEPS)) {
  const paths = toolPaths();
  mkdirSync(paths.cache, { recursive: true });
  for (const name of Object.keys(STEPS)) {
    if (!only.includes(name)) continue;
    const t0 = Date.now();
    const outcome = name === 'apt' ? STEPS[name]() : STEPS[name](paths);
    log(`setup ${name}: ${outcome} (${Date.now() - t0} ms)`);
  }
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = process.argv.flatMap((a, i, all) => (all[i - 1] === '--only' ? [a] : []));
  try {
    const t0 = Date.now();
    const paths = ensureAll(only.length ? only : undefined);
    log(`setup done in ${Date.now() - t0} ms; cache ${paths.cache}`);
  } catch (error) {
    console.error(error instanceof SetupError ? `vscode-e2e setup: ${error.message}` : error);
    process.exit(1);
  }
}
