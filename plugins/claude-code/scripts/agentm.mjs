#!/usr/bin/env node
// `agentm <args>` for this plugin's hooks and MCP server, at the version the plugin was released with (its
// .claude-plugin/plugin.json `version`, which scripts/version.mjs keeps equal to @agentm/cli's):
//   1. `agentm` on PATH is that version (npm i -g @agentm/cli@<version>): it runs inside this process, so a
//      hook pays for one Node start, not two (UserPromptSubmit has 300 ms).
//   2. otherwise: `npx --yes --prefer-offline --package @agentm/cli@<version> -- agentm <args>`. npm fetches
//      the package once; after that it runs from npm's cache without asking the registry (an exact version
//      never changes), so it works offline too. Each hook still pays for npm's start. An `agentm` of another
//      version is not used: a hook and the MCP server of one session must be one version (the prompt hook
//      asks the running server, which answers only its own version), and the plugin's commands expect
//      its tools.
//   3. npx missing or failing: SessionStart tells the person the one command that fixes it; the other
//      hooks stay silent (a hook never fails a session); `mcp` exits 1 with the reason on stderr.
// In cases 2 and 3, SessionStart adds a `systemMessage` naming that command.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = '@agentm/cli';
const PLUGIN_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WINDOWS = process.platform === 'win32';

/** The plugin's version (its plugin.json), which is the @agentm/cli version it runs. */
export function pluginVersion(root = PLUGIN_ROOT) {
  return JSON.parse(readFileSync(join(root, '.claude-plugin', 'plugin.json'), 'utf8')).version;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The package folder that holds an `agentm` bin file, by its real path (npm's global symlink). */
function packageOfBin(file) {
  let dir = dirname(realpathSync(file));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const manifest = readJson(join(dir, 'package.json'));
    if (manifest) return manifest.bin?.agentm ? { dir, manifest } : undefined;
  }
  return undefined;
}

/**
 * The AgentM package behind the first `agentm` on PATH, read from files (starting it to ask would cost a
 * second Node start on every hook): its bin's real path (npm's symlinks), else npm's global layout beside
 * the PATH folder (Windows' `.cmd` shims, `<prefix>/bin` → `<prefix>/lib/node_modules`). Undefined when
 * there is none or it cannot be told.
 */
function agentmOnPath(env = process.env) {
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const bins = WINDOWS ? ['agentm.cmd', 'agentm.exe', 'agentm'] : ['agentm'];
    const bin = bins.map((b) => join(folder, b)).find((f) => existsSync(f));
    if (!bin) continue;
    try {
      const found = packageOfBin(bin);
      if (found) return found;
    } catch {
      // an unreadable link: try npm's layout below
    }
    for (const dir of [join(folder, 'node_modules', PACKAGE), join(folder, '..', 'lib', 'node_modules', PACKAGE)]) {
      const manifest = readJson(join(dir, 'package.json'));
      if (manifest?.bin?.agentm) return { dir, manifest };
    }
    return undefined;
  }
  return undefined;
}

/** The one command that installs the version this plugin runs. */
function installCommand(version) {
  return `npm install -g ${PACKAGE}@${version}`;
}

function sessionStartNotice(version, problem) {
  const fix = installCommand(version);
  return problem
    ? `AgentM is not running: ${problem}. Install it once with: ${fix}`
    : `AgentM runs through npx, which adds npm's start to every hook; install it once to make them faster: ${fix}`;
}

/** SessionStart's answer with `notice` for the person (systemMessage) and the model (additionalContext). */
function withNotice(answer, notice) {
  let output = {};
  try {
    if (answer.trim()) output = JSON.parse(answer);
  } catch {
    output = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: answer } };
  }
  const specific = output.hookSpecificOutput ?? { hookEventName: 'SessionStart' };
  const context = [specific.additionalContext, `AgentM plugin: ${notice}`].filter(Boolean).join('\n\n');
  return `${JSON.stringify({ ...output, systemMessage: notice, hookSpecificOutput: { ...specific, additionalContext: context } })}\n`;
}

/**
 * Runs `agentm <args>` through npx; resolves with its exit code, its stdout when `capture`, and what went
 * wrong when it failed. Past `deadlineMs` npx is stopped (offline, npm retries for minutes).
 */
function viaNpx(version, args, { capture = false, deadlineMs } = {}) {
  return new Promise((resolve) => {
    const spec = `${PACKAGE}@${version}`;
    const child = spawn(
      WINDOWS ? 'npx.cmd' : 'npx',
      ['--yes', '--prefer-offline', '--package', spec, '--', 'agentm', ...args],
      {
        stdio: ['inherit', capture ? 'pipe' : 'inherit', 'inherit'],
        shell: WINDOWS,
      },
    );
    let out = '';
    let late = false;
    child.stdout?.on('data', (chunk) => (out += chunk));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    const timer =
      deadlineMs === undefined ? undefined : setTimeout(() => ((late = true), child.kill('SIGTERM')), deadlineMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 127, out, problem: `npx could not be started (${error.code}); is Node.js's npm installed?` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const problem = late
        ? `npx did not get ${spec} within ${deadlineMs / 1000} s (offline?)`
        : `npx could not run ${spec} (exit ${code ?? signal})`;
      resolve({ code: code ?? 1, out, problem: code === 0 ? undefined : problem });
    });
  });
}

/** SessionStart's time with npx: below its hook timeout (60 s in hooks.json), to leave time to answer. */
const SESSION_START_DEADLINE_MS = 50_000;

async function main(args) {
  const version = pluginVersion();
  const local = agentmOnPath();
  if (local && local.manifest.version === version) {
    await import(pathToFileURL(join(local.dir, local.manifest.bin.agentm)).href);
    return;
  }
  const hook = args[0] === 'hook';
  const sessionStart = hook && args[1] === 'session-start';
  const ran = await viaNpx(version, args, {
    capture: sessionStart,
    ...(sessionStart ? { deadlineMs: SESSION_START_DEADLINE_MS } : {}),
  });
  // A hook that ran always exits 0: any other code means npx did not start it (no network, no such version).
  const failed = ran.code !== 0 && (hook || ran.code === 127);
  if (sessionStart) {
    const notice = sessionStartNotice(version, failed ? ran.problem : undefined);
    process.stdout.write(withNotice(failed ? '' : ran.out, notice));
  }
  if (ran.code !== 0 && (failed || !hook))
    process.stderr.write(
      `agentm (Claude Code plugin): ${ran.problem}; AgentM installs with: ${installCommand(version)}\n`,
    );
  process.exitCode = hook ? 0 : ran.code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  await main(process.argv.slice(2));
