import { mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostEnv } from '@agentm/core';
import { describe, expect, it } from 'vitest';
import { defaultMemoryRootFolder, parseMemoryRootSetting } from '../src/memory-root.js';
import { unloadPlugin } from './fake-obsidian/testing.js';
import { startWithPlugin } from './helpers/plugin.js';
import { testVault, type TestVault } from './helpers/vault.js';

/** The plugin's host env with `env` added (e.g. MEMORY_VAULT_PATH). */
function hostWith(v: TestVault, env: Record<string, string> = {}): HostEnv {
  return { env: { ...v.host.hostEnv.env, ...env }, home: v.home };
}

describe('the default memory root (settings empty): agentm’s config, restricted to this vault', () => {
  it('is the vault root when there is no config', async () => {
    const v = await testVault();
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: '', source: 'vault' });
  });

  it('is memory_root when the configured vault path is this vault (also through a symlink, and for the legacy key)', async () => {
    const v = await testVault();
    await v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: 'Agent', source: 'config' });

    const link = join(v.home, 'vault-link');
    await symlink(v.dir, link);
    await v.writeConfig({ 'plugins.obsidian-vault.vault_path': link, 'plugins.obsidian-vault.memory_root': ' a\\b/ ' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: 'a/b', source: 'config' });

    await v.writeConfig({ vault_path: v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: 'Agent', source: 'config' });
  });

  it('ignores memory_root when the configured vault is another folder', async () => {
    const v = await testVault();
    const other = join(v.home, 'OtherVault');
    await mkdir(other);
    await v.writeConfig({ 'plugins.obsidian-vault.vault_path': other, 'plugins.obsidian-vault.memory_root': 'Agent' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: '', source: 'vault' });
  });

  it.each(['../escape', '/abs', 'C:/x', '   ', 42])(
    'validates memory_root like core: %j is treated as absent',
    async (value) => {
      const v = await testVault();
      await v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': value });
      expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: '', source: 'vault' });
    },
  );

  it('is MEMORY_VAULT_PATH when it names a folder of this vault, taken as is and ahead of config', async () => {
    const v = await testVault({ 'Mem/x.md': 'x' });
    await v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v, { MEMORY_VAULT_PATH: join(v.dir, 'Mem') }))).toEqual({
      folder: 'Mem',
      source: 'env',
    });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v, { MEMORY_VAULT_PATH: v.dir }))).toEqual({
      folder: '',
      source: 'env',
    });
  });

  it('is the vault root when MEMORY_VAULT_PATH names a folder outside this vault or nothing (agents then ignore config too)', async () => {
    const v = await testVault();
    await v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v, { MEMORY_VAULT_PATH: v.home }))).toEqual({
      folder: '',
      source: 'vault',
    });
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v, { MEMORY_VAULT_PATH: join(v.dir, 'missing') }))).toEqual({
      folder: '',
      source: 'vault',
    });
  });

  it('never writes the config (not even to migrate the legacy key)', async () => {
    const v = await testVault();
    expect(await defaultMemoryRootFolder(v.dir, hostWith(v))).toEqual({ folder: '', source: 'vault' });
    expect(await readdir(v.home)).toEqual([]);
    await v.writeConfig({ vault_path: v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' });
    const before = await readFile(join(v.home, '.claude', '.agentm-config.json'), 'utf8');
    await defaultMemoryRootFolder(v.dir, hostWith(v));
    expect(await readFile(join(v.home, '.claude', '.agentm-config.json'), 'utf8')).toBe(before);
  });

  it('parses the setting: empty = default, "/" = the vault root, a folder otherwise; ".." is refused', () => {
    expect(parseMemoryRootSetting('  ')).toBeUndefined();
    expect(parseMemoryRootSetting('/')).toBe('');
    expect(parseMemoryRootSetting('/Agent/')).toBe('Agent');
    expect(() => parseMemoryRootSetting('../x')).toThrow(/must not contain "\.\."/);
    expect(() => parseMemoryRootSetting('Agent\\..\\..\\x')).toThrow(/must not contain "\.\."/);
  });

  it('spells the setting as Obsidian spells paths (normalizePath): backslashes, doubled slashes, NBSP, NFC', () => {
    expect(parseMemoryRootSetting(' //Agent\\notes// ')).toBe('Agent/notes');
    expect(parseMemoryRootSetting('My\u00a0Agent')).toBe('My Agent');
    expect(parseMemoryRootSetting('Me\u0301moire')).toBe('M\u00e9moire');
  });
});

describe('the plugin’s memory root', () => {
  it('follows agentm’s config at start-up when the setting is empty, and the setting when it is not', async () => {
    const { v, plugin } = await startWithPlugin(
      { 'Agent/memory/fix/a.md': 'a' },
      {
        before: (v) =>
          v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' }),
      },
    );
    expect(plugin.context?.memoryRoot).toEqual({ folder: 'Agent', source: 'config' });
    expect(plugin.context?.backend.root).toBe(join(v.dir, 'Agent'));
    plugin.settings.memoryRoot = 'Other';
    await plugin.saveSettings();
    expect(plugin.context?.memoryRoot).toEqual({ folder: 'Other', source: 'setting' });
    plugin.settings.memoryRoot = '';
    await plugin.saveSettings();
    expect(plugin.context?.memoryRoot).toEqual({ folder: 'Agent', source: 'config' });
    unloadPlugin(plugin);
  });

  it('a folder typed in another Unicode form or with backslashes is the vault folder of that name', async () => {
    const { v, plugin } = await startWithPlugin({ 'M\u00e9moire/Agent/memory/fix/a.md': 'a' });
    plugin.settings.memoryRoot = 'Me\u0301moire\\Agent\\';
    await plugin.saveSettings();
    expect(plugin.context?.memoryRoot).toEqual({ folder: 'M\u00e9moire/Agent', source: 'setting' });
    expect(plugin.context?.backend.root).toBe(join(v.dir, 'M\u00e9moire', 'Agent'));
    expect(await plugin.context?.backend.list(plugin.context.backend.resolve('memory', 'fix'))).toHaveLength(1);
    unloadPlugin(plugin);
  });

  it('follows MEMORY_VAULT_PATH when it names a folder of this vault', async () => {
    const { v, plugin } = await startWithPlugin(
      { 'Mem/x.md': 'x' },
      {
        before: async (v) => {
          (v.host.hostEnv.env as Record<string, string>)['MEMORY_VAULT_PATH'] = join(v.dir, 'Mem');
        },
      },
    );
    expect(plugin.context?.memoryRoot).toEqual({ folder: 'Mem', source: 'env' });
    expect(plugin.context?.backend.root).toBe(join(v.dir, 'Mem'));
    unloadPlugin(plugin);
  });
});
