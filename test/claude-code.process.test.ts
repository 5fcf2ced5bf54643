import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { AGENTM_BIN, type CliResult } from './helpers/cli.js';
import { refusingRegistry, serveTarball } from './helpers/npm-registry.js';
import {
  fileScopedDir,
  installCli,
  packedCli,
  pathWithoutWorkspace,
  type InstalledCli,
  type PackedCli,
} from './helpers/packed-cli.js';

/**
 * Claude Code itself (the pinned root devDependency, a native binary from its platform package), run with
 * a private HOME: it validates the plugin and connects to `agentm mcp` the way a user's does. Neither
 * command needs a login or the network. The plugin runs the released npm package (the tarball the release
 * script packs): installed with npm, or, when `agentm` is not on PATH, through npx from a registry on
 * 127.0.0.1 that serves that tarball.
 */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN_DIR = join(REPO_ROOT, 'node_modules', '.bin');
const CLAUDE = join(BIN_DIR, 'claude');
const PLUGIN = join(REPO_ROOT, 'plugins', 'claude-code');

let packed: PackedCli;
let installed: InstalledCli;
beforeAll(async () => {
  packed = await packedCli();
  const root = await fileScopedDir('agentm-claude-');
  await mkdir(join(root, 'home'));
  installed = await installCli(packed.tarball, root, join(root, 'home'));
}, 60_000);

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
});

/** Claude Code with `path` as PATH (default: the workspace's bin, where `agentm` is this checkout's). */
function claude(
  args: string[],
  options: { cwd?: string; path?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const cwd = options.cwd ?? world.repo;
  const env: NodeJS.ProcessEnv = {
    PATH: options.path ?? `${BIN_DIR}:${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
    HOME: world.home,
    XDG_CACHE_HOME: join(world.home, '.cache'),
    AGENTM_INSTALL_PREFIX: join(world.home, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000); // a hung CLI fails its test, with its output
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('Claude Code (the real CLI, pinned)', () => {
  it('is the pinned version', async () => {
    const r = await claude(['--version']);
    expect(r.stdout.trim()).toBe('2.1.332 (Claude Code)');
  });

  it('validates the plugin with no warning, as the plugin directory would (--profile directory --strict)', async () => {
    const text = await claude(['plugin', 'validate', '--profile', 'directory', '--strict', PLUGIN]);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain('✔ Validation passed');
    expect(text.stdout).toContain('✔ These checks found nothing to report');
    expect(text.stdout).toContain('Hosts: registry.npmjs.org (declared)');
    expect(text.stdout).not.toMatch(/⚠|warning|Hosts not declared/i);
    const r = await claude(['plugin', 'validate', '--json', '--profile', 'directory', '--strict', PLUGIN]);
    const report = JSON.parse(r.stdout) as ValidateReport;
    expect(report.success).toBe(true);
    expect(report.manifest).toMatchObject({ errors: [], warnings: [], notes: [] });
    expect(report.advice).toEqual([]);
    expect(report.directory).toMatchObject({ findings: [], undecided: [], incomplete: false, failure: null });
    const launcher = 'node "${CLAUDE_PLUGIN_ROOT}/scripts/agentm.mjs"';
    expect(report.provides.hooks).toEqual(
      ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'].map((event) => ({
        event,
        type: 'command',
        command: `${launcher} hook ${event.replace(/[A-Z]/g, (c, i: number) => `${i ? '-' : ''}${c.toLowerCase()}`)}`,
      })),
    );
    expect(report.provides.mcpServers).toEqual([
      { name: 'agentm', type: 'stdio', target: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/scripts/agentm.mjs', 'mcp'] },
    ]);
    expect(report.provides.commands).toEqual(['agentm:plan-status', 'agentm:recall', 'agentm:save']);
    const marketplace = await claude(['plugin', 'validate', '--strict', REPO_ROOT]);
    expect(marketplace.code, marketplace.stdout + marketplace.stderr).toBe(0);
    expect(marketplace.stdout).toContain('✔ Validation passed');
  });

  it('`claude mcp add agentm -- agentm mcp` then `claude mcp list`: the AgentM server is connected', async () => {
    const added = await claude(['mcp', 'add', 'agentm', '--scope', 'local', '--', AGENTM_BIN, 'mcp']);
    expect(added.code, added.stdout + added.stderr).toBe(0);
    const listed = await claude(['mcp', 'list']);
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^agentm: .*agentm mcp - ✔ Connected$/m);
  });

  it('installs the plugin from this repository in one command; its MCP server connects to the installed agentm', async () => {
    // No registry answers: only the installed agentm can serve.
    const options = {
      path: `${installed.binDir}:${pathWithoutWorkspace()}`,
      env: { npm_config_registry: await refusingRegistry(), npm_config_fetch_retries: '0' },
    };
    const installedPlugin = await claude(['plugin', 'install', 'agentm', '--marketplace', REPO_ROOT], options);
    expect(installedPlugin.code, installedPlugin.stdout + installedPlugin.stderr).toBe(0);
    expect(installedPlugin.stdout).toContain('Successfully installed plugin: agentm@agentm');
    const listed = await claude(['mcp', 'list'], options);
    expect(listed.stdout).toMatch(/^plugin:agentm:agentm: node .*\/scripts\/agentm\.mjs mcp - ✔ Connected$/m);
  });

  it("with no agentm on PATH, the plugin's MCP server runs the plugin's version through npx and connects", async () => {
    const registry = await serveTarball(packed.tarball, packed.manifest);
    const options = {
      path: pathWithoutWorkspace(),
      env: { npm_config_registry: registry.url, npm_config_update_notifier: 'false' },
    };
    const installedPlugin = await claude(['plugin', 'install', 'agentm', '--marketplace', REPO_ROOT], options);
    expect(installedPlugin.code, installedPlugin.stdout + installedPlugin.stderr).toBe(0);
    const listed = await claude(['mcp', 'list'], options);
    expect(listed.stdout).toMatch(/^plugin:agentm:agentm: node .*\/scripts\/agentm\.mjs mcp - ✔ Connected$/m);
    expect(registry.requests).toContain(`/@agentm/cli/-/cli-${packed.manifest.version}.tgz`);
  });
});

/** The part of `claude plugin validate --json` the test reads. */
interface ValidateReport {
  success: boolean;
  manifest: { errors: unknown[]; warnings: unknown[]; notes: unknown[] };
  advice: unknown[];
  directory: { findings: unknown[]; undecided: unknown[]; incomplete: boolean; failure: unknown };
  provides: {
    hooks: Array<{ event: string; type: string; command: string }>;
    mcpServers: Array<{ name: string; type: string; target: string; args: string[] }>;
    commands: string[];
  };
}
