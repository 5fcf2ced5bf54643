import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

describe('agentm doctor (black box)', () => {
  it('with no configuration selects the device-local store and round-trips a probe note through it', async () => {
    const home = await tempDir();
    const result = await runAgentm(['doctor', '--roundtrip'], { home });
    expect(result.code, result.stderr).toBe(0);
    const root = join(home, '.agentm', 'memory');
    expect(result.stdout).toContain(`storage [OK] selected backend 'device-local' (fresh-install default) — registered; root ${root} writable`);
    expect(result.stdout).toMatch(/^roundtrip \[OK\] wrote and read back _meta\/doctor-roundtrip\.md \(\d+ bytes\) through 'device-local'$/m);
    expect(await readFile(join(root, '_meta', 'doctor-roundtrip.md'), 'utf8')).toMatch(/café ναί 🦗\r\nend\n$/);
  });

  it('goes through the vault backend (and its lock) when MEMORY_VAULT_PATH is set', async () => {
    const home = await tempDir();
    const vault = join(home, 'Vault', 'Agent');
    const result = await runAgentm(['doctor', '--roundtrip', '--json'], { home, env: { MEMORY_VAULT_PATH: vault } });
    expect(result.code, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<{ check: string; status: string; line: string }>;
    expect(rows.map((r) => [r.check, r.status])).toEqual([
      ['storage', 'ok'],
      ['roundtrip', 'ok'],
    ]);
    expect(rows[0]!.line).toContain("selected backend 'vault' ($MEMORY_VAULT_PATH env override)");
    expect((await stat(join(vault, '_meta', 'doctor-roundtrip.md'))).isFile()).toBe(true);
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
});
