import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { AGENTM_BIN, type CliResult } from './helpers/cli.js';

/**
 * Claude Code itself (the pinned root devDependency, a native binary from its platform package), run with
 * a private HOME: it validates the plugin and connects to `agentm mcp` the way a user's does. Neither
 * command needs a login or the network.
 */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN_DIR = join(REPO_ROOT, 'node_modules', '.bin');
const CLAUDE = join(BIN_DIR, 'claude');
const PLUGIN = join(REPO_ROOT, 'plugins', 'claude-code');

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
});

function claude(args: string[], cwd = world.repo): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {
    // agentm on the PATH, as the plugin's hooks and .mcp.json expect it.
    PATH: `${BIN_DIR}:${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
    HOME: world.home,
    XDG_CACHE_HOME: join(world.home, '.cache'),
    AGENTM_INSTALL_PREFIX: join(world.home, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
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

  it('validates the plugin, and the marketplace that lists it', async () => {
    const plugin = await claude(['plugin', 'validate', PLUGIN]);
    expect(plugin.code, plugin.stdout + plugin.stderr).toBe(0);
    expect(plugin.stdout).toContain('✔ Validation passed');
    expect(plugin.stdout).toContain('hooks: SessionStart command "agentm hook session-start"');
    expect(plugin.stdout).toContain('mcpServers: agentm stdio agentm ["mcp"]');
    for (const command of ['agentm:save', 'agentm:recall', 'agentm:plan-status'])
      expect(plugin.stdout).toContain(`commands: ${command}`);
    const marketplace = await claude(['plugin', 'validate', REPO_ROOT]);
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

  it('installs the plugin from this repository in one command; its MCP server connects', async () => {
    const installed = await claude(['plugin', 'install', 'agentm', '--marketplace', REPO_ROOT]);
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Successfully installed plugin: agentm@agentm');
    const listed = await claude(['mcp', 'list']);
    expect(listed.stdout).toMatch(/^plugin:agentm:agentm: agentm mcp - ✔ Connected$/m);
  });
});
