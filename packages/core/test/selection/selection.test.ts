import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { BackendRegistry, capabilities, StorageSelectionError, type HostEnv } from '../../src/index.js';
import { CapabilityMismatchError } from '../../src/selection/errors.js';
import { configFilePath } from '../../src/config/config-file.js';
import { selectBackend } from '../../src/selection/select-backend.js';
import { storagePreview } from '../../src/selection/storage-preview.js';
import { parseCapabilityNames, VALID_CAPABILITY_NAMES } from '../../src/selection/capability-names.js';
import { tempDir } from '../../../../test/helpers/temp.js';

interface World {
  host: HostEnv;
  home: string;
  deviceRoot: string;
  vault: string;
}

async function world(config?: unknown, env: Record<string, string> = {}): Promise<World> {
  const home = await tempDir();
  const vault = join(home, 'Vault');
  await mkdir(join(vault, 'Agent'), { recursive: true });
  const host = {
    env: {
      AGENTM_INSTALL_PREFIX: join(home, 'prefix'),
      XDG_CACHE_HOME: join(home, 'cache'),
      AGENTM_DEVICE_LOCAL_ROOT: join(home, 'device'),
      ...env,
    },
    home,
  };
  if (config !== undefined) {
    await mkdir(join(home, 'prefix'));
    await writeFile(
      configFilePath(host),
      typeof config === 'string' || Buffer.isBuffer(config) ? config : JSON.stringify(config),
    );
  }
  return { host, home, deviceRoot: join(home, 'device'), vault };
}

async function refusal(w: World, options: Parameters<typeof selectBackend>[0] = {}): Promise<StorageSelectionError> {
  const error = await selectBackend({ host: w.host, ...options }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StorageSelectionError);
  // Never demote, never construct: the device-local root must not appear.
  expect(await readdir(w.home)).not.toContain('device');
  return error as StorageSelectionError;
}

describe('selectBackend', () => {
  it('defaults to device-local (fresh install)', async () => {
    const w = await world();
    const selected = await selectBackend({ host: w.host });
    expect(selected.protocol).toBe('device-local');
    expect(selected.origin).toBe('fresh-install default');
    expect(selected.backend).toBeInstanceOf(DeviceLocalBackend);
    expect(selected.root).toBe(w.deviceRoot);
  });

  it('MEMORY_VAULT_PATH selects the vault rooted there, with the lock root of the host', async () => {
    const w = await world(undefined, {});
    const env = { ...w.host.env, MEMORY_VAULT_PATH: join(w.vault, 'Agent') };
    const selected = await selectBackend({ host: { ...w.host, env } });
    expect(selected.origin).toBe('$MEMORY_VAULT_PATH env override');
    const backend = selected.backend as VaultBackend;
    expect(backend.root).toBe(join(w.vault, 'Agent'));
    expect(backend.lockDir.startsWith(join(w.home, 'cache', 'agentm', 'locks'))).toBe(true);
  });

  it('explicit storage.backend wins; the vault store is the memory root and the personal root is the vault', async () => {
    const w = await world();
    await writeFile(join(w.home, 'x'), '');
    await mkdir(join(w.home, 'prefix'));
    await writeFile(
      configFilePath(w.host),
      JSON.stringify({
        'storage.backend': 'vault',
        'plugins.obsidian-vault.vault_path': w.vault,
        'plugins.obsidian-vault.memory_root': 'Agent',
      }),
    );
    const selected = await selectBackend({ host: { ...w.host, env: { ...w.host.env, MEMORY_VAULT_PATH: '' } } });
    expect(selected.origin).toBe('configured (storage.backend)');
    expect((selected.backend as VaultBackend).root).toBe(join(w.vault, 'Agent'));
    expect((selected.backend as VaultBackend).personalRoot).toBe(w.vault);
  });

  it('a legacy-only vault_path selects the vault without rewriting the config', async () => {
    const w = await world();
    await mkdir(join(w.home, 'prefix'));
    const bytes = JSON.stringify({ vault_path: w.vault, mode: 'release' });
    await writeFile(configFilePath(w.host), bytes);
    const selected = await selectBackend({ host: w.host });
    expect(selected.protocol).toBe('vault');
    expect(selected.origin).toMatch(/legacy vault_path/);
    expect(await readFile(configFilePath(w.host), 'utf8')).toBe(bytes);
  });

  it('refuses an unregistered protocol, naming it and listing the registered ones', async () => {
    const w = await world({ 'storage.backend': 'gdrive' });
    const error = await refusal(w);
    expect(error.reason).toBe('unregistered');
    expect(error.message).toMatch(/'gdrive'.*Registered backends: device-local, postgres, vault\./);
    const empty = await refusal(w, { registry: new BackendRegistry() });
    expect(empty.message).toContain('Registered backends: (none)');
  });

  it('refuses vault without a vault path, naming the key, the command and storage.backend', async () => {
    const w = await world({ 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': '/definitely/missing' });
    const error = await refusal(w);
    expect(error.reason).toBe('no-vault-path');
    expect(error.message).toContain('plugins.obsidian-vault.vault_path');
    expect(error.message).toContain('agentm config set vault_path <dir>');
    expect(error.message).toContain('storage.backend');
  });

  it('refuses MEMORY_VAULT_PATH naming a missing directory (no silent demotion)', async () => {
    const w = await world(undefined, { MEMORY_VAULT_PATH: '/definitely/missing' });
    expect((await refusal(w)).message).toMatch(/MEMORY_VAULT_PATH does not name an existing directory/);
  });

  it.each([
    ['invalid JSON', '{"storage.backend": "vault"'],
    ['a non-object', '[1]'],
    ['UTF-16', Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
    ['a non-string backend', '{"storage.backend": 7}'],
    ['an empty backend', '{"storage.backend": ""}'],
  ])('refuses a config that is %s, naming the file', async (_what, config) => {
    const w = await world(config);
    const error = await refusal(w);
    expect(error.reason).toBe('corrupt-config');
    expect(error.message).toContain(configFilePath(w.host));
  });

  it('names every missing capability in canonical order (snake_case) and creates nothing', async () => {
    const w = await world();
    const error = await refusal(w, { required: { sync: true, encryption: true, concurrentWriters: true } });
    expect(error).toBeInstanceOf(CapabilityMismatchError);
    expect(error.message).toContain(
      "backend 'device-local' does not satisfy required capabilities: concurrent_writers, encryption, sync",
    );
    expect((error as CapabilityMismatchError).missing).toEqual(['concurrentWriters', 'encryption', 'sync']);
  });

  it('passes when the backend has what is required (all-false always passes)', async () => {
    const w = await world(undefined, {});
    const env = { ...w.host.env, MEMORY_VAULT_PATH: w.vault };
    await expect(
      selectBackend({ host: { ...w.host, env }, required: { sync: true, concurrentWriters: true } }),
    ).resolves.toMatchObject({ protocol: 'vault' });
    await expect(selectBackend({ host: w.host, required: { sync: false } })).resolves.toMatchObject({
      protocol: 'device-local',
    });
  });

  it('constructs a third-party registered backend with no root', async () => {
    class Custom extends MemoryBackend {
      constructor() {
        super({ capabilities: { encryption: true } });
      }
    }
    const registry = new BackendRegistry();
    registry.register('custom', Custom);
    const w = await world({ 'storage.backend': 'custom' });
    const selected = await selectBackend({ host: w.host, registry, required: { encryption: true } });
    expect(selected.backend).toBeInstanceOf(Custom);
    expect(capabilities(selected.backend.capabilities).encryption).toBe(true);
  });

  it('createRoot: false resolves the backend without creating its root', async () => {
    const w = await world();
    await selectBackend({ host: w.host, createRoot: false });
    expect(await readdir(w.home)).not.toContain('device');
  });
});

describe('storagePreview', () => {
  it('ok for a fresh install, without creating the device-local root', async () => {
    const w = await world();
    const preview = await storagePreview({ host: w.host });
    expect(preview).toMatchObject({ status: 'ok', protocol: 'device-local' });
    expect(preview.line).toBe(
      `storage [OK] selected backend 'device-local' (fresh-install default) — registered; root ${w.deviceRoot} writable`,
    );
    expect(await readdir(w.home)).not.toContain('device');
  });

  it('returns fail rows with the runtime refusal messages instead of throwing (incl. vault with no path)', async () => {
    for (const config of [{ 'storage.backend': 'vault' }, { 'storage.backend': 'nope' }, '{bad']) {
      const w = await world(config);
      const runtime = await selectBackend({ host: w.host }).catch((e: Error) => e.message);
      const preview = await storagePreview({ host: w.host });
      expect(preview.status).toBe('fail');
      expect(preview.line).toBe(`storage [FAIL] ${runtime}`);
      expect(await readdir(w.home)).not.toContain('device');
    }
  });

  it('warns when the root cannot be created or written (a file sits where its folder would go)', async () => {
    const w = await world();
    await writeFile(join(w.home, 'blocker'), 'a file, not a folder\n');
    const root = join(w.home, 'blocker', 'store');
    const preview = await storagePreview({
      host: { ...w.host, env: { ...w.host.env, AGENTM_DEVICE_LOCAL_ROOT: root } },
    });
    expect(preview.status).toBe('warn');
    expect(preview.line).toBe(
      `storage [WARN] selected backend 'device-local' (fresh-install default) — registered, but root ${root} is not writable`,
    );
  });
});

describe('capability names', () => {
  it('accepts agentm snake_case and camelCase; reports unknown names', () => {
    expect(parseCapabilityNames('concurrent_writers, sync,,conflictFiles')).toEqual({
      required: { concurrentWriters: true, sync: true, conflictFiles: true },
      unknown: [],
    });
    expect(parseCapabilityNames(['speed', 'encryption'])).toEqual({
      required: { encryption: true },
      unknown: ['speed'],
    });
    expect(VALID_CAPABILITY_NAMES).toEqual(['concurrent_writers', 'conflict_files', 'encryption', 'sync']);
  });
});
