import { mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld } from './helpers/agentm-world.js';

describe('agentm config (black box)', { timeout: 60_000 }, () => {
  it('set vault_path resolves the directory, selects the vault, writes 0600 JSON; doctor then uses it', async () => {
    const w = await agentmWorld();
    const set = await runAgentm(['config', 'set', 'vault_path', w.vault], { home: w.home });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`updated ${w.configFile}\n`);
    expect(await runAgentm(['config', 'set', 'memory_root', 'Agent'], { home: w.home })).toMatchObject({ code: 0 });
    expect(await readFile(w.configFile, 'utf8')).toBe(
      `{\n  "plugins.obsidian-vault.vault_path": "${await realpath(w.vault)}",\n  "storage.backend": "vault",\n  "schema_version": 2,\n  "plugins.obsidian-vault.memory_root": "Agent"\n}\n`,
    );
    expect((await stat(w.configFile)).mode & 0o777).toBe(0o600);
    const doctor = await runAgentm(['doctor'], { home: w.home });
    expect(doctor.stdout).toContain(
      `storage [OK] selected backend 'vault' (configured (storage.backend)) — registered; memory root ${await realpath(w.memoryRoot)} writable`,
    );
  });

  it('get prints the value (exit 0) or nothing (exit 1); set is idempotent; unset removes', async () => {
    const w = await agentmWorld();
    expect(await runAgentm(['config', 'get', 'state_mode'], { home: w.home })).toMatchObject({ code: 1, stdout: '' });
    await runAgentm(['config', 'set', 'state_mode', 'vault'], { home: w.home });
    expect(await runAgentm(['config', 'get', 'state_mode'], { home: w.home })).toMatchObject({
      code: 0,
      stdout: 'backend\n',
    });
    const mtime = (await stat(w.configFile)).mtimeMs;
    expect((await runAgentm(['config', 'set', 'state_mode', 'backend'], { home: w.home })).stdout).toBe(
      `unchanged ${w.configFile}\n`,
    );
    expect((await stat(w.configFile)).mtimeMs).toBe(mtime);
    await runAgentm(['config', 'set', 'spaces', '{"projects": "work/projects"}', '--json'], { home: w.home });
    expect((await runAgentm(['config', 'get', 'spaces'], { home: w.home })).stdout).toBe(
      '{"projects":"work/projects"}\n',
    );
    expect((await runAgentm(['config', 'unset', 'state_mode'], { home: w.home })).stdout).toBe(
      `updated ${w.configFile}\n`,
    );
    expect(JSON.parse(await readFile(w.configFile, 'utf8'))).toEqual({
      schema_version: 2,
      'plugins.obsidian-vault.spaces': { projects: 'work/projects' },
    });
  });

  it.each([
    [['config', 'set', 'vault_path', '/definitely/not/here'], /not an existing directory/],
    [['config', 'set', 'memory_root', '../up'], /memory_root must be a vault-relative folder/],
    [['config', 'set', 'state_mode', 'cloud'], /state_mode must be local or backend/],
    [['config', 'unset', 'schema_version'], /cannot be unset/],
    [['config', 'set', 'spaces', '{bad', '--json'], /not valid JSON/],
  ])('%j exits 2 with the reason on stderr and writes nothing', async (args, message) => {
    const w = await agentmWorld();
    const result = await runAgentm(args, { home: w.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    await expect(stat(w.configFile)).rejects.toThrow();
  });

  it('refuses to rewrite a corrupt config (exit 2) and keeps its bytes', async () => {
    const w = await agentmWorld();
    await mkdir(join(w.home, '.claude'));
    await w.writeConfig('{"storage.backend": "vault"');
    const result = await runAgentm(['config', 'set', 'state_mode', 'local'], { home: w.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/could not be read as JSON.*Fix the file/);
    expect(await readFile(w.configFile, 'utf8')).toBe('{"storage.backend": "vault"');
  });
});
