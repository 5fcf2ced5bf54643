import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';

describe('agentm doctor (black box)', { timeout: 60_000 }, () => {
  it('with no configuration selects the device-local store, round-trips a probe note through it and removes it', async () => {
    const home = await tempDir();
    const result = await runAgentm(['doctor', '--roundtrip'], { home });
    expect(result.code, result.stderr).toBe(0);
    const root = join(home, '.agentm', 'memory');
    expect(result.stdout).toContain(
      `storage [OK] selected backend 'device-local' (fresh-install default) — registered; root ${root} writable`,
    );
    expect(result.stdout).toMatch(
      /^roundtrip \[OK\] wrote and read back _meta\/doctor-roundtrip\.md \(\d+ bytes\) through 'device-local', then removed it$/m,
    );
    expect(existsSync(join(root, '_meta', 'doctor-roundtrip.md'))).toBe(false);
    // A fresh install is told how to point AgentM at a vault.
    expect(result.stdout).toContain('setup [HINT] no vault is configured');
    expect(result.stdout).toContain('agentm init (or agentm config set vault_path ~/Vault)');
  });

  it('goes through the vault backend (and its lock) when MEMORY_VAULT_PATH is set', async () => {
    const home = await tempDir();
    const vault = join(home, 'Vault', 'Agent');
    await mkdir(vault, { recursive: true });
    const result = await runAgentm(['doctor', '--roundtrip', '--json'], { home, env: { MEMORY_VAULT_PATH: vault } });
    expect(result.code, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<{ id: string; status: string; line: string }>;
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['storage', 'ok'],
      ['lock', 'ok'],
      ['links', 'ok'],
      ['temps', 'ok'],
      ['conflicts', 'ok'],
      ['evolves', 'ok'],
      ['provider chat', 'info'],
      ['provider embeddings', 'info'],
      ['index', 'info'],
      ['roundtrip', 'ok'],
    ]);
    expect(rows[0]!.line).toContain("selected backend 'vault' ($MEMORY_VAULT_PATH env override)");
    expect(existsSync(join(vault, '_meta', 'doctor-roundtrip.md'))).toBe(false);
    // The lock was taken under the private cache dir and released.
    expect((await stat(join(home, '.cache', 'agentm', 'locks'))).isDirectory()).toBe(true);
  });

  it('exits 2 on a usage error, with the message on stderr', async () => {
    const home = await tempDir();
    const result = await runAgentm(['doctor', '--no-such-flag'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--no-such-flag'/);
    const unknown = await runAgentm(['frobnicate'], { home });
    expect(unknown.code).toBe(2);
  });

  it.each([
    ['invalid JSON', '{"storage.backend": "vault",', /could not be read as JSON/],
    ['a non-object', '["vault"]', /not a JSON object/],
    [
      'UTF-16 with a BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"storage.backend":"vault"}', 'utf16le')]),
      /UTF-16/,
    ],
    ['a non-string backend', '{"storage.backend": ["vault"]}', /not a backend name/],
    ['an empty backend', '{"storage.backend": ""}', /not a backend name/],
  ])('fails (exit 1) on a config that is %s, naming the file, and creates no store', async (_what, config, problem) => {
    const w = await agentmWorld();
    await w.writeConfig(config);
    const result = await runAgentm(['doctor', '--roundtrip'], { home: w.home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^storage \[FAIL\] /m);
    expect(result.stdout).toMatch(problem);
    expect(result.stdout).toContain(w.configFile);
    expect(await readdir(w.home)).not.toContain('.agentm');
  });

  it('fails when the vault is configured but missing, naming the key and the command, and never demotes', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ ...vaultConfig(w), 'plugins.obsidian-vault.vault_path': join(w.home, 'Unmounted') });
    const result = await runAgentm(['doctor', '--roundtrip'], { home: w.home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /storage \[FAIL\] 'vault' is selected .*plugins\.obsidian-vault\.vault_path.*agentm config set vault_path <dir>.*storage\.backend/,
    );
    expect(await readdir(w.home)).not.toContain('.agentm');
  });

  it('a legacy-only vault_path selects the vault, warns with the migration command, and leaves the config bytes', async () => {
    const w = await agentmWorld();
    const bytes = JSON.stringify({ vault_path: w.memoryRoot, mode: 'release' });
    await w.writeConfig(bytes);
    const result = await runAgentm(['doctor', '--roundtrip'], { home: w.home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`storage [OK] selected backend 'vault' (legacy vault_path (not migrated))`);
    expect(result.stdout).toContain(
      `config [WARN] ${w.configFile} names the vault only with the legacy key vault_path (${w.memoryRoot})`,
    );
    expect(result.stdout).toContain(`Migrate with: agentm config set vault_path ${w.memoryRoot}`);
    expect(await readFile(w.configFile, 'utf8')).toBe(bytes);
    expect(existsSync(join(w.memoryRoot, '_meta', 'doctor-roundtrip.md'))).toBe(false);
  });

  it('--requires: unknown names exit 1 listing the valid ones; a missing capability fails; a met one passes', async () => {
    const w = await agentmWorld();
    const unknown = await runAgentm(['doctor', '--requires', 'sync,speed,magic'], { home: w.home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'error: unknown capability name(s): speed, magic. Valid names: concurrent_writers, conflict_files, encryption, sync\n',
    );
    expect(await readdir(w.home)).not.toContain('.agentm');
    const missing = await runAgentm(['doctor', '--requires', 'sync,concurrentWriters'], { home: w.home });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      "requires [FAIL] backend 'device-local' does not satisfy required capabilities: concurrent_writers, sync",
    );
    expect(await readdir(w.home)).not.toContain('.agentm');
    await w.writeConfig(vaultConfig(w));
    const met = await runAgentm(['doctor', '--requires', 'concurrent_writers,sync', '--json'], { home: w.home });
    expect(met.code, met.stdout).toBe(0);
    expect(JSON.parse(met.stdout)).toContainEqual({
      id: 'requires',
      status: 'ok',
      message: "backend 'vault' satisfies required capabilities: concurrent_writers, sync",
      line: "requires [OK] backend 'vault' satisfies required capabilities: concurrent_writers, sync",
    });
  });
});
