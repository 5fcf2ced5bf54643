import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliProblems } from '../scripts/release/contents.mjs';
import {
  fileScopedDir,
  installCli,
  packedCli,
  pathWithoutWorkspace,
  run,
  type InstalledCli,
  type PackedCli,
} from './helpers/packed-cli.js';

/**
 * The npm package as a user gets it: the tarball the release workflow publishes (packed by the same
 * script), installed with `npm install -g` on a machine with an empty HOME and npm cache and no network
 * (`--offline`), then run from the PATH — never from this workspace.
 */
let packed: PackedCli;
let installed: InstalledCli;
let home: string;

beforeAll(async () => {
  packed = await packedCli();
  const root = await fileScopedDir('agentm-install-');
  home = join(root, 'home');
  await mkdir(home);
  installed = await installCli(packed.tarball, root, home);
}, 60_000);

/** A user's environment: the install's bin first on PATH, an empty HOME, no AgentM workspace. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${installed.binDir}:${pathWithoutWorkspace()}`,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    ...extra,
  };
}

const agentm = (args: string[], extra: NodeJS.ProcessEnv = {}, cwd = home) =>
  run('agentm', args, { env: userEnv(extra), cwd });

describe('@agentm/cli from its packed tarball', () => {
  it('holds the bin, the bundle, README and LICENSE, and nothing to install besides itself', () => {
    expect(cliProblems(packed.files, packed.manifest)).toEqual([]);
    expect(packed.manifest).toMatchObject({ name: '@agentm/cli', bin: { agentm: 'bin/agentm.js' }, license: 'MIT' });
    expect(packed.manifest).not.toHaveProperty('dependencies');
    expect(existsSync(join(installed.packageDir, 'node_modules'))).toBe(false);
  });

  it('installs with `npm i -g <tarball> --offline` on an empty HOME and puts `agentm` on the PATH', async () => {
    expect(installed.log.code).toBe(0);
    expect(installed.log.stdout + installed.log.stderr).toMatch(/added 1 package/);
    const which = await run('sh', ['-c', 'command -v agentm'], { env: userEnv(), cwd: home });
    expect(which.stdout.trim()).toBe(installed.bin);
  });

  it('`agentm --version` prints the package version', async () => {
    const r = await agentm(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(packed.manifest.version);
  });

  it('`agentm doctor` on a fresh machine: the device-local store is ready, a vault is a hint away', async () => {
    const r = await agentm(['doctor']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`storage [OK] selected backend 'device-local'`);
    expect(r.stdout).toMatch(/^setup \[HINT\] no vault is configured/m);
  });

  it('`agentm reindex` builds with the packaged read worker', async () => {
    const memory = join(home, 'memory-root');
    await mkdir(join(memory, 'memory', 'fix'), { recursive: true });
    await writeFile(
      join(memory, 'memory', 'fix', 'lock-timeout.md'),
      '---\ntype: fix\nstatus: active\n---\n\nRaise the vault lock timeout on slow disks.\n',
    );
    const r = await agentm(['reindex', '--json'], { MEMORY_VAULT_PATH: memory });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { documents: number; readWorkers?: number; errors: unknown[] };
    expect(report).toMatchObject({ documents: 1, errors: [] });
    expect(report.readWorkers).toBeGreaterThanOrEqual(1);
  });

  it('`agentm mcp` answers the MCP SDK client: handshake, tools, a save that recall then finds', async () => {
    const transport = new StdioClientTransport({
      command: 'agentm',
      args: ['mcp'],
      cwd: home,
      env: userEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'release-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ version: packed.manifest.version });
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['recall', 'save', 'read_plan', 'doctor']));
      const saved = (await client.callTool({
        name: 'save',
        arguments: {
          kind: 'fix',
          slug: 'npm-install-offline',
          body: 'The packed CLI installs offline.',
          group: 'memory',
        },
      })) as CallToolResult;
      expect(saved.isError, JSON.stringify(saved.content)).toBeFalsy();
      const found = (await client.callTool({
        name: 'recall',
        arguments: { query: 'packed CLI installs offline' },
      })) as CallToolResult;
      expect(JSON.stringify(found.content)).toContain('npm-install-offline');
    } finally {
      await client.close();
    }
  });
});
