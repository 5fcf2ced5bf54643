import { mkdir, readFile, realpath, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigValueError, CorruptConfigError } from '../../src/config/errors.js';
import { configFilePath } from '../../src/config/config-file.js';
import { getConfigValue, setConfigValue, unsetConfigValue } from '../../src/config/config-writer.js';
import { type HostEnv } from '../../src/index.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function newHost(): Promise<HostEnv> {
  const home = await tempDir();
  return { env: { AGENTM_INSTALL_PREFIX: join(home, 'prefix'), XDG_CACHE_HOME: join(home, 'cache') }, home };
}

describe('agentm config writer', () => {
  it('writes 2-space JSON plus newline with schema_version 2, mode 0600', async () => {
    const host = await newHost();
    expect(await setConfigValue(host, 'state_mode', 'local')).toEqual({ changed: true, file: configFilePath(host) });
    expect(await readFile(configFilePath(host), 'utf8')).toBe(
      '{\n  "state_mode": "local",\n  "schema_version": 2\n}\n',
    );
    expect((await stat(configFilePath(host))).mode & 0o777).toBe(0o600);
  });

  it('is idempotent: setting the same value again does not touch the file', async () => {
    const host = await newHost();
    await setConfigValue(host, 'storage.backend', 'device-local');
    // An hour in the past, in whole seconds (a millisecond stamp can come back as x.999 from the
    // filesystem's nanoseconds): any rewrite would stamp it now, whatever the clock's resolution.
    const past = new Date(Math.floor((Date.now() - 3_600_000) / 1000) * 1000);
    await utimes(configFilePath(host), past, past);
    expect((await setConfigValue(host, 'storage.backend', ' device-local ')).changed).toBe(false);
    expect((await stat(configFilePath(host))).mtimeMs).toBe(past.getTime());
    expect((await unsetConfigValue(host, 'never-set')).changed).toBe(false);
  });

  it('keeps the order and the values of keys it does not touch, and tightens an existing file to 0600', async () => {
    const host = await newHost();
    await mkdir(join(host.home, 'prefix'));
    await writeFile(configFilePath(host), '{"mode": "source", "installed_shas": {"a": 1}, "schema_version": 2}', {
      mode: 0o644,
    });
    await setConfigValue(host, 'memory_root', 'Agent');
    expect(await readFile(configFilePath(host), 'utf8')).toBe(
      '{\n  "mode": "source",\n  "installed_shas": {\n    "a": 1\n  },\n  "schema_version": 2,\n  "plugins.obsidian-vault.memory_root": "Agent"\n}\n',
    );
    expect((await stat(configFilePath(host))).mode & 0o777).toBe(0o600);
  });

  it('set vault_path resolves an existing directory (symlinks too) and also selects the vault', async () => {
    const host = await newHost();
    const vault = join(host.home, 'My Vault');
    await mkdir(vault);
    await setConfigValue(host, 'vault_path', '~/My Vault/');
    const data = JSON.parse(await readFile(configFilePath(host), 'utf8'));
    expect(data).toEqual({
      'plugins.obsidian-vault.vault_path': await realpath(vault),
      'storage.backend': 'vault',
      schema_version: 2,
    });
    expect(await getConfigValue(host, 'vault_path')).toBe(await realpath(vault));
  });

  it('refuses a vault_path that is not an existing directory, writing nothing', async () => {
    const host = await newHost();
    await expect(setConfigValue(host, 'vault_path', join(host.home, 'nope'))).rejects.toThrow(
      /not an existing directory/,
    );
    await expect(stat(configFilePath(host))).rejects.toThrow();
  });

  it('get vault_path falls back to the legacy key; unset vault_path removes both keys', async () => {
    const host = await newHost();
    await mkdir(join(host.home, 'prefix'));
    await writeFile(
      configFilePath(host),
      JSON.stringify({ vault_path: '/legacy', 'plugins.obsidian-vault.vault_path': '' }),
    );
    expect(await getConfigValue(host, 'vault_path')).toBe('/legacy');
    await unsetConfigValue(host, 'vault_path');
    expect(JSON.parse(await readFile(configFilePath(host), 'utf8'))).toEqual({ schema_version: 2 });
  });

  it.each([
    ['state_mode', 'remote', /state_mode must be local or backend/],
    ['memory_root', '/abs', /memory_root must be a vault-relative folder/],
    ['memory_root', 'a/../b', /memory_root/],
    ['storage.backend', ' ', /non-empty backend name/],
    ['spaces', 'desk', /spaces must be a JSON object/],
    ['spaces', { projects: 'C:/x' }, /space "projects"/],
    ['schema_version', 3, /managed by AgentM/],
  ])('refuses %s = %j with a message naming the key', async (key, value, message) => {
    const host = await newHost();
    const error = await setConfigValue(host, key, value).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigValueError);
    expect((error as Error).message).toMatch(message);
  });

  it('stores state_mode vault as backend, and refuses to unset schema_version', async () => {
    const host = await newHost();
    await setConfigValue(host, 'state_mode', 'vault');
    expect(await getConfigValue(host, 'state_mode')).toBe('backend');
    await expect(unsetConfigValue(host, 'schema_version')).rejects.toThrow(/cannot be unset/);
  });

  it('refuses to rewrite a corrupt config (it would lose what the user wrote), leaving the bytes', async () => {
    const host = await newHost();
    await mkdir(join(host.home, 'prefix'));
    await writeFile(configFilePath(host), '{"storage.backend": "vault", oops');
    await expect(setConfigValue(host, 'state_mode', 'local')).rejects.toBeInstanceOf(CorruptConfigError);
    expect(await readFile(configFilePath(host), 'utf8')).toBe('{"storage.backend": "vault", oops');
  });

  it('serializes concurrent setters: every key lands', async () => {
    const host = await newHost();
    await Promise.all(Array.from({ length: 8 }, (_, i) => setConfigValue(host, `k${i}`, `v${i}`)));
    const data = JSON.parse(await readFile(configFilePath(host), 'utf8'));
    for (let i = 0; i < 8; i++) expect(data[`k${i}`]).toBe(`v${i}`);
  });
});
