import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConcurrentModificationError } from '@agentm/core/write-protocol';
import { setSkippedEntrySink } from '@agentm/core/backends';
import { contentHash, lockDirFor } from '@agentm/core/write-protocol';
import { runConformance, UNIVERSAL_CHECKS } from '@agentm/core/testing';
import { describe, expect, it } from 'vitest';
import { bindVaultBackend, ObsidianVaultBackend } from '../src/vault-backend.js';
import { testVault } from './helpers/vault.js';

describe('the in-vault backend', () => {
  it('passes core’s conformance suite over a real vault folder, rooted at the vault', async () => {
    const report = await runConformance(async () => {
      const v = await testVault();
      return new ObsidianVaultBackend({ app: v.app, folder: '', host: v.host });
    });
    expect(report.universal).toEqual(UNIVERSAL_CHECKS.map((c) => c.name));
  });

  it('passes it rooted at a memory root folder, and keeps everything under that folder', async () => {
    const vaults: string[] = [];
    await runConformance(async () => {
      const v = await testVault({ 'outside.md': 'not the store\n' });
      vaults.push(v.dir);
      return new ObsidianVaultBackend({ app: v.app, folder: 'Agent', host: v.host });
    });
    for (const dir of vaults) expect((await readdir(dir)).sort()).toEqual(expect.arrayContaining(['outside.md']));
    expect((await readdir(vaults[1]!)).sort()).toEqual(['Agent', 'outside.md']);
  });

  it('keys its lock on the memory root on disk, exactly as agents do', async () => {
    const v = await testVault();
    const backend = new ObsidianVaultBackend({ app: v.app, folder: 'Agent', host: v.host });
    expect(backend.root).toBe(join(v.dir, 'Agent'));
    expect(backend.lockDir).toBe(lockDirFor(join(v.dir, 'Agent'), v.lockRoot));
  });

  it('writes a file open in an editor through Vault.process and refuses a stale hash without touching it', async () => {
    const v = await testVault({ 'Agent/plan.md': 'v1\n' });
    const backend = new ObsidianVaultBackend({ app: v.app, folder: 'Agent', host: v.host });
    const file = v.app.vault.getFileByPath('Agent/plan.md')!;
    await v.app.workspace.getLeaf(true).openFile(file);
    const modified: string[] = [];
    v.app.vault.on('modify', (f) => modified.push(f.path));
    await backend.write(backend.resolve('plan.md'), 'v2\n', { expectHash: contentHash('v1\n') });
    expect(modified).toEqual(['Agent/plan.md']);
    await expect(
      backend.write(backend.resolve('plan.md'), 'v3\n', { expectHash: contentHash('v1\n') }),
    ).rejects.toBeInstanceOf(ConcurrentModificationError);
    expect(await readFile(join(v.dir, 'Agent/plan.md'), 'utf8')).toBe('v2\n');
  });

  it('is registered as `vault` by binding: a registry-built backend maps an absolute memory root inside the vault to its folder', async () => {
    const v = await testVault();
    const Bound = bindVaultBackend(v.app, { host: v.host, lockRoot: v.lockRoot });
    const backend = new Bound({ root: join(v.dir, 'Agent') }) as ObsidianVaultBackend;
    expect(backend.folder).toBe('Agent');
    expect(() => new Bound({ root: '/somewhere/else' })).toThrow(/outside the vault open in Obsidian/);
  });

  it('never lists its own in-flight temp files', async () => {
    const v = await testVault();
    await writeFile(join(v.dir, '.note.md.123.0123456789abcdef.tmp'), 'partial');
    await writeFile(join(v.dir, 'note.md'), 'whole');
    const backend = new ObsidianVaultBackend({ app: v.app, host: v.host });
    expect((await backend.list(backend.resolve())).map((l) => l.key)).toEqual(['note.md']);
  });

  it('skips a file the seam cannot name (a backslash) with one warning instead of failing the listing', async () => {
    const v = await testVault();
    await writeFile(join(v.dir, 'odd\\name.md'), 'x');
    await writeFile(join(v.dir, 'note.md'), 'whole');
    const warnings: string[] = [];
    setSkippedEntrySink((m) => warnings.push(m));
    try {
      const backend = new ObsidianVaultBackend({ app: v.app, host: v.host });
      expect((await backend.list(backend.resolve())).map((l) => l.key)).toEqual(['note.md']);
      expect((await backend.list(backend.resolve())).map((l) => l.key)).toEqual(['note.md']);
      expect(warnings).toEqual([expect.stringContaining('odd\\name.md')]);
    } finally {
      setSkippedEntrySink(undefined);
    }
  });
});
