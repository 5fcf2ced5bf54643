import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installPrefix } from '../../src/config/config-file.js';
import { InvalidBackendSettingError, readExplicitBackend } from '../../src/config/explicit-backend.js';
import { pythonJson } from '../../src/config/python-json.js';
import { configStateMode, normalizeStateMode } from '../../src/config/state-mode.js';
import { vaultPath } from '../../src/config/roots.js';
import { VaultNotFoundError } from '../../src/config/errors.js';
import { configFilePath, readConfigTolerant } from '../../src/config/config-file.js';
import { CorruptConfigError } from '../../src/config/errors.js';
import { memoryRoot, resolveVault, spacePath, validateRelativePrefix } from '../../src/config/roots.js';
import { type HostEnv } from '../../src/index.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function hostWith(config?: string | Buffer, env: Record<string, string> = {}): Promise<HostEnv> {
  const home = await tempDir();
  const host = { env: { AGENTM_INSTALL_PREFIX: join(home, 'prefix'), ...env }, home };
  if (config !== undefined) {
    await mkdir(join(home, 'prefix'), { recursive: true });
    await writeFile(configFilePath(host), config);
  }
  return host;
}

describe('config location', () => {
  it('is AGENTM_INSTALL_PREFIX (trimmed, ~ expanded) → ~/.claude, file .agentm-config.json', () => {
    expect(installPrefix({ env: {}, home: '/h' })).toBe('/h/.claude');
    expect(installPrefix({ env: { AGENTM_INSTALL_PREFIX: ' ~/p ' }, home: '/h' })).toBe('/h/p');
    expect(installPrefix({ env: { AGENTM_INSTALL_PREFIX: '  ' }, home: '/h' })).toBe('/h/.claude');
    expect(configFilePath({ env: { AGENTM_INSTALL_PREFIX: '/x' }, home: '/h' })).toBe('/x/.agentm-config.json');
  });
});

describe('the strict storage.backend reader', () => {
  it.each([
    ['invalid JSON', '{"storage.backend": "vault",', /could not be read as JSON/],
    ['a JSON array', '["vault"]', /not a JSON object \(it holds an array\)/],
    ['a JSON string', '"vault"', /not a JSON object/],
    [
      'UTF-16 LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"storage.backend":"vault"}', 'utf16le')]),
      /UTF-16/,
    ],
    ['UTF-16 BE with BOM', Buffer.from([0xfe, 0xff, 0, 0x7b, 0, 0x7d]), /UTF-16/],
    ['invalid UTF-8', Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), /not valid UTF-8/],
  ])('refuses %s, naming the file and the fix', async (_what, bytes, problem) => {
    const host = await hostWith(bytes);
    const error = await readExplicitBackend(host).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptConfigError);
    expect((error as Error).message).toMatch(problem);
    expect((error as Error).message).toContain(configFilePath(host));
    expect((error as Error).message).toMatch(/Fix the file .* or remove it/);
    expect((error as Error).message).toMatch(/device-local/);
  });

  it.each([
    ['a number', '{"storage.backend": 3}'],
    ['a list', '{"storage.backend": ["vault"]}'],
    ['an empty string', '{"storage.backend": ""}'],
    ['spaces', '{"storage.backend": "   "}'],
    ['null', '{"storage.backend": null}'],
  ])('refuses a storage.backend that is %s, naming the value and the fix', async (_what, text) => {
    const host = await hostWith(text);
    const error = await readExplicitBackend(host).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidBackendSettingError);
    expect((error as Error).message).toContain(configFilePath(host));
    expect((error as Error).message).toMatch(
      /agentm config set storage\.backend <name>.*agentm config unset storage\.backend/,
    );
  });

  it('reads a trimmed, case-sensitive name; absent file or key is no selection', async () => {
    expect((await readExplicitBackend(await hostWith('{"storage.backend": " Vault "}'))).backend).toBe('Vault');
    expect((await readExplicitBackend(await hostWith('{"state_mode": "local"}'))).backend).toBeUndefined();
    expect((await readExplicitBackend(await hostWith())).backend).toBeUndefined();
  });

  it('accepts a UTF-8 byte-order mark', async () => {
    expect(
      (await readExplicitBackend(await hostWith(Buffer.from('\ufeff{"storage.backend":"vault"}', 'utf8')))).backend,
    ).toBe('vault');
  });

  it('the tolerant reader treats every corrupt variant as no config', async () => {
    for (const bad of ['{', '[]', Buffer.from([0xff, 0xfe, 0x7b, 0])])
      expect(await readConfigTolerant(await hostWith(bad))).toEqual({});
  });
});

describe('memory_root and spaces validation', () => {
  it.each([
    ['Agent', 'Agent'],
    [' a/b/ ', 'a/b'],
    ['a\\b', 'a/b'],
    ['', undefined],
    ['   ', undefined],
    ['/abs', undefined],
    ['C:/x', undefined],
    ['a/../b', undefined],
    ['..', undefined],
    ['//', undefined],
    [3, undefined],
  ])('%j → %j', (value, expected) => {
    expect(validateRelativePrefix(value)).toBe(expected);
  });

  it('spaces default to memory, desk/projects, desk/briefs, desk/scratch; invalid overrides are ignored', () => {
    expect(['memory', 'projects', 'briefs', 'scratch'].map((n) => spacePath(n, {}))).toEqual([
      'memory',
      'desk/projects',
      'desk/briefs',
      'desk/scratch',
    ]);
    const config = { 'plugins.obsidian-vault.spaces': { projects: 'work/projects', memory: '../escape', briefs: '' } };
    expect(spacePath('projects', config)).toBe('work/projects');
    expect(spacePath('memory', config)).toBe('memory');
    expect(spacePath('briefs', config)).toBe('desk/briefs');
    expect(spacePath('other', config)).toBe('other');
  });
});

describe('vault and memory root', () => {
  it('MEMORY_VAULT_PATH naming an existing dir is the memory root as is (never re-joined with memory_root)', async () => {
    const dir = await tempDir();
    const host = await hostWith(JSON.stringify({ 'plugins.obsidian-vault.memory_root': 'Agent' }), {
      MEMORY_VAULT_PATH: dir,
    });
    expect(await memoryRoot(host)).toBe(dir);
    expect((await resolveVault(host)).source).toBe('env');
  });

  it('MEMORY_VAULT_PATH naming a missing dir is "no vault", with no fall-through to config', async () => {
    const vault = await tempDir();
    const host = await hostWith(JSON.stringify({ 'plugins.obsidian-vault.vault_path': vault }), {
      MEMORY_VAULT_PATH: join(vault, 'missing'),
    });
    expect(await resolveVault(host)).toEqual({ path: undefined, source: undefined, envSet: true });
    expect(await memoryRoot(host)).toBeUndefined();
  });

  it('joins the configured vault with a valid memory_root and ignores an invalid one', async () => {
    const vault = await tempDir();
    const good = await hostWith(
      JSON.stringify({ 'plugins.obsidian-vault.vault_path': vault, 'plugins.obsidian-vault.memory_root': 'Agent/' }),
    );
    expect(await memoryRoot(good)).toBe(join(vault, 'Agent'));
    const bad = await hostWith(
      JSON.stringify({ 'plugins.obsidian-vault.vault_path': vault, 'plugins.obsidian-vault.memory_root': '../x' }),
    );
    expect(await memoryRoot(bad)).toBe(vault);
  });

  it('uses the legacy vault_path only when the plugin key is absent; a set-but-missing plugin key does not fall back', async () => {
    const vault = await tempDir();
    const legacy = await hostWith(JSON.stringify({ vault_path: vault }));
    expect(await resolveVault(legacy)).toEqual({ path: vault, source: 'legacy', envSet: false });
    const shadowed = await hostWith(
      JSON.stringify({ vault_path: vault, 'plugins.obsidian-vault.vault_path': join(vault, 'gone') }),
    );
    expect((await resolveVault(shadowed)).path).toBeUndefined();
  });

  it("vaultPath() raises when storage.backend is 'vault' and the configured vault is missing (agentm's fail-loud guard)", async () => {
    const home = await tempDir();
    const missing = join(home, 'Unmounted', 'Vault');
    const host = await hostWith(
      JSON.stringify({ 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': missing }),
    );
    const error = await vaultPath(host).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultNotFoundError);
    expect((error as VaultNotFoundError).code).toBe('EVAULTNOTFOUND');
    expect((error as VaultNotFoundError).exitCode).toBe(2); // a config the user fixes
    expect((error as Error).message).toContain(missing); // the path…
    expect((error as Error).message).toContain('agentm config set vault_path'); // …and the fix
    expect((error as Error).message).toContain('storage.backend');
    await expect(memoryRoot(host)).rejects.toBeInstanceOf(VaultNotFoundError); // agentm's memory_root() propagates it
    expect((await resolveVault(host)).path).toBeUndefined(); // the doctor's and selection's reader never throws
    // No vault path at all under storage.backend=vault: the same error, naming the missing key.
    const unset = await hostWith(JSON.stringify({ 'storage.backend': ' vault ' }));
    await expect(vaultPath(unset)).rejects.toThrow(/plugins\.obsidian-vault\.vault_path is not set/);
  });

  it('vaultPath() is "no vault" (no error) under another backend, or when MEMORY_VAULT_PATH overrides (a graceful skip)', async () => {
    const home = await tempDir();
    const missing = join(home, 'gone');
    const other = await hostWith(
      JSON.stringify({ 'storage.backend': 'device-local', 'plugins.obsidian-vault.vault_path': missing }),
    );
    expect(await vaultPath(other)).toBeUndefined();
    const env = await hostWith(JSON.stringify({ 'storage.backend': 'vault' }), { MEMORY_VAULT_PATH: missing });
    expect(await vaultPath(env)).toBeUndefined();
    const present = await hostWith(
      JSON.stringify({ 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': home }),
    );
    expect(await vaultPath(present)).toBe(home);
  });

  it('expands ~ in config paths and follows the home of the host, not of the process', async () => {
    const home = await tempDir();
    await mkdir(join(home, 'Vault'));
    await symlink(join(home, 'Vault'), join(home, 'link'));
    const host = { env: { AGENTM_INSTALL_PREFIX: join(home, 'p') }, home };
    await mkdir(join(home, 'p'));
    await writeFile(configFilePath(host), JSON.stringify({ 'plugins.obsidian-vault.vault_path': '~/link' }));
    expect(await resolveVault(host)).toMatchObject({ path: join(home, 'link'), source: 'config' });
  });
});

describe('state mode', () => {
  it.each([
    ['local', 'local'],
    [' LOCAL\n', 'local'],
    ['vault', 'backend'],
    ['Backend', 'backend'],
    ['', undefined],
    ['  ', undefined],
    [1, undefined],
    ['other', 'other'],
  ])('%j reads as %j', (raw, expected) => {
    expect(normalizeStateMode(raw)).toBe(expected);
    expect(configStateMode({ state_mode: raw })).toBe(expected);
  });
});

describe('pythonJson', () => {
  it('writes 2-space JSON, escapes non-ASCII and DEL as lowercase \\uXXXX (surrogate pairs for emoji), ends with a newline', () => {
    expect(pythonJson({ a: 'café 🦗\u007f', b: [], c: {}, d: [1, true, null] })).toBe(
      '{\n  "a": "caf\\u00e9 \\ud83e\\udd97\\u007f",\n  "b": [],\n  "c": {},\n  "d": [\n    1,\n    true,\n    null\n  ]\n}\n',
    );
  });
});
