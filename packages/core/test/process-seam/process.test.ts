import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VaultBackend } from '../../src/backends/vault.js';
import { ActivePlanError, UnsafePlanNameError } from '../../src/state/errors.js';
import { configFilePath } from '../../src/config/config-file.js';
import { CorruptConfigError } from '../../src/config/errors.js';
import {
  offerSaveHere,
  recallHere,
  StatePathArgumentError,
  statePath,
  type ProcessContext,
} from '../../src/process-seam/process.js';
import { saveNote } from '../../src/memory/notes/save.js';
import { StorageSelectionError } from '../../src/index.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { tempDir } from '../../../../test/helpers/temp.js';

/** Every entry under `root` (but not under `skip`): path, kind, bytes hash and mtime. */
async function snapshot(root: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      if (skip.includes(path)) continue;
      const st = await lstat(path);
      if (st.isDirectory()) {
        out[path] = `dir ${st.mtimeMs}`;
        await walk(path);
      } else out[path] = `file ${st.mtimeMs} ${contentHash(await readFile(path))}`;
    }
  };
  await walk(root);
  return out;
}

interface Seamed {
  home: string;
  repo: string;
  memoryRoot: string;
  ctx: ProcessContext;
}

/** A temp home with a vault laid out like agentm's, and a repo whose project is `proj`. */
async function world(options: { vault?: 'present' | 'missing' | 'none'; slug?: boolean } = {}): Promise<Seamed> {
  const home = await tempDir();
  const repo = join(home, 'repo');
  const memoryRoot = join(home, 'Vault', 'Agent');
  await mkdir(join(repo, '.harness'), { recursive: true });
  if (options.slug !== false)
    await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: 'proj' }));
  await mkdir(join(memoryRoot, '_meta'), { recursive: true });
  await writeFile(join(memoryRoot, '_meta', 'repos.json'), '{"version": 1, "repos": []}\n');
  await mkdir(join(memoryRoot, 'desk', 'projects', 'proj', '_harness'), { recursive: true });
  const env: Record<string, string> = {
    AGENTM_INSTALL_PREFIX: join(home, 'prefix'),
    XDG_CACHE_HOME: join(home, 'cache'),
    AGENTM_DEVICE_LOCAL_ROOT: join(home, 'device'),
  };
  if (options.vault === 'present' || options.vault === undefined) env['MEMORY_VAULT_PATH'] = memoryRoot;
  if (options.vault === 'missing') env['MEMORY_VAULT_PATH'] = join(home, 'unmounted');
  return { home, repo, memoryRoot, ctx: { cwd: repo, host: { env, home }, gitRemote: async () => undefined } };
}

/**
 * Runs `call` and asserts that nothing under the home changed — vault, repo, config, device root —
 * except the user cache dir (`<home>/cache`), where recallHere keeps the memory index (allowed: it is
 * device-local and derived).
 */
async function readOnly<T>(home: string, call: () => Promise<T>): Promise<T> {
  const skip = [join(home, 'cache')];
  const before = await snapshot(home, skip);
  const result = await call().catch((e: unknown) => e as T);
  expect(await snapshot(home, skip)).toEqual(before);
  return result;
}

describe('process seam: read-only, graceful no-op, seed 000 contract', () => {
  it("recallHere returns the engine's phase recall within the budget, the index in the cache dir and nothing written to the vault or repo", async () => {
    const w = await world();
    const backend = new VaultBackend({ root: w.memoryRoot, lockRoot: join(w.home, 'cache', 'agentm', 'locks') });
    await saveNote(backend, { kind: 'preference', slug: 'tabs', body: 'Use tabs.\n', alwaysLoad: true });
    await saveNote(backend, { kind: 'fix', slug: 'ci', group: 'desk/projects/proj', body: 'Run npm ci.\n' });
    await saveNote(backend, {
      kind: 'fix',
      slug: 'theirs',
      group: 'desk/projects/other',
      body: 'Another project: run make.\n',
    });
    await writeFile(
      join(w.memoryRoot, 'desk/projects/proj/_harness/progress.md'),
      '# Progress\n\n- 2026-01-05T10:00:00Z the CI cache was stale; cleared it and the build passed\n',
    );
    const vaultAndRepo = async () => [await snapshot(w.memoryRoot), await snapshot(w.repo)];
    const before = await vaultAndRepo();
    const text = await readOnly(w.home, () => recallHere({ ...w.ctx, phase: 'nonsense' }));
    expect(await vaultAndRepo()).toEqual(before);
    expect(text).toMatch(/^## Recall · work · proj\n\n### Use tabs\.\n_preference · memory\/_always-load\/tabs\.md_\n/);
    expect(text).toContain('Use tabs.');
    expect(text).toContain('Run npm ci.');
    expect(text).toContain('the CI cache was stale; cleared it and the build passed');
    expect(text).not.toContain('Another project');
    expect(text).not.toContain('type: fix'); // bodies come through parseNote, without frontmatter
    expect(await readdir(join(w.home, 'cache', 'agentm', 'index'))).toHaveLength(1);
    expect(await readOnly(w.home, () => recallHere(w.ctx, { limit: 5 }))).toBe('');
    const small = await readOnly(w.home, () => recallHere(w.ctx, { limit: 30 }));
    expect(small.length).toBeLessThanOrEqual(30 * 4);
    expect(small).toContain('### Use tabs.');
  });

  it('recallHere ranks by the query: within a tight budget the matching note is the one recalled', async () => {
    const w = await world();
    const backend = new VaultBackend({ root: w.memoryRoot, lockRoot: join(w.home, 'cache', 'agentm', 'locks') });
    const filler = ' More words about the project that take room in the budget.'.repeat(3);
    await saveNote(backend, {
      kind: 'convention',
      slug: 'pnpm',
      group: 'desk/projects/proj',
      body: `Install dependencies with pnpm, never npm.${filler}\n`,
    });
    await saveNote(backend, {
      kind: 'convention',
      slug: 'style',
      group: 'desk/projects/proj',
      body: `Format code with prettier before each commit.${filler}\n`,
    });
    await saveNote(backend, {
      kind: 'convention',
      slug: 'docs',
      group: 'desk/projects/proj',
      body: `Write docs in plain English.${filler}\n`,
    });
    for (const query of ['prettier format', 'pnpm dependencies']) {
      const text = await readOnly(w.home, () => recallHere(w.ctx, { query, limit: 80 }));
      expect(text.length).toBeLessThanOrEqual(80 * 4);
      const first = /^### (.+)$/m.exec(text)?.[1];
      expect(first, query).toMatch(
        query.startsWith('pnpm') ? /^Install dependencies with pnpm/ : /^Format code with prettier/,
      );
    }
  });

  it('recallHere falls back to the notes newest first, with a warning, when the index cannot be opened', async () => {
    const w = await world();
    const backend = new VaultBackend({ root: w.memoryRoot, lockRoot: join(w.home, 'locks') });
    await saveNote(backend, { kind: 'fix', slug: 'ci', group: 'desk/projects/proj', body: 'Run npm ci.\n' });
    await writeFile(join(w.home, 'cache'), 'a file where the cache dir should be');
    const warnings: string[] = [];
    const text = await recallHere({ ...w.ctx, warn: (m) => warnings.push(m) }, { query: 'ci' });
    expect(text).toMatch(/^# Recall \(work\)\n/);
    expect(text).toContain('Run npm ci.');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^recall-here: the memory index could not be used \(.+\); showing always-load and project notes newest first, without the query$/,
      ),
    ]);
  });

  it('memory absent → "", [] and the repo-local path, all without writing', async () => {
    for (const w of [await world({ slug: false }), await world({ vault: 'missing' })]) {
      expect(await readOnly(w.home, () => recallHere(w.ctx))).toBe('');
      expect(await readOnly(w.home, () => offerSaveHere(w.ctx, { kind: 'fix', slug: 's' }))).toEqual([]);
    }
    const none = await world({ vault: 'none' });
    expect(await readOnly(none.home, () => statePath(none.ctx, 'plan'))).toBe(join(none.repo, '.harness', 'PLAN.md'));
    expect(await readdir(none.home)).not.toContain('device');
  });

  it('a configured vault that is missing (storage.backend=vault, the drive unmounted): recall and offer degrade, statePath is loud', async () => {
    const w = await world({ vault: 'none' });
    await mkdir(join(w.home, 'prefix'));
    await writeFile(
      join(w.home, 'prefix', '.agentm-config.json'),
      JSON.stringify({ 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': join(w.home, 'Unmounted') }),
    );
    expect(await readOnly(w.home, () => recallHere(w.ctx))).toBe('');
    expect(await readOnly(w.home, () => offerSaveHere(w.ctx, { kind: 'fix', slug: 's', body: 'b' }))).toEqual([]);
    expect(await readOnly(w.home, () => statePath(w.ctx, 'plan'))).toBeInstanceOf(StorageSelectionError);
  });

  it('offerSaveHere enriches a copy (project, phase, target) and never mutates or saves', async () => {
    const w = await world();
    const candidate = { kind: 'decision', slug: 'foo', body: 'b', confidence: 0.9 };
    const offered = await readOnly(w.home, () => offerSaveHere({ ...w.ctx, phase: 'review' }, candidate));
    expect(offered).toEqual([{ ...candidate, project: 'proj', phase: 'review', target: 'desk/projects/proj' }]);
    expect(candidate).toEqual({ kind: 'decision', slug: 'foo', body: 'b', confidence: 0.9 });
    expect(await offerSaveHere(w.ctx, { project: 'mine', phase: 'plan' })).toEqual([
      { project: 'mine', phase: 'plan', target: 'desk/projects/proj' },
    ]);
    expect(await offerSaveHere(w.ctx, 'just text')).toEqual([
      { body: 'just text', project: 'proj', target: 'desk/projects/proj' },
    ]);
    for (const empty of [null, undefined, '', 0]) expect(await offerSaveHere(w.ctx, empty)).toEqual([]);
  });

  it('offerSaveHere offers nothing for an empty candidate ({} or [], falsy in agentm)', async () => {
    const w = await world();
    expect(await readOnly(w.home, () => offerSaveHere(w.ctx, {}))).toEqual([]);
    expect(await offerSaveHere(w.ctx, [])).toEqual([]);
  });

  it('offerSaveHere offers nothing without a vault path (device-local store: agentm is_available() is false)', async () => {
    const w = await world({ vault: 'none' });
    expect(await readOnly(w.home, () => offerSaveHere(w.ctx, { kind: 'fix', slug: 's', body: 'b' }))).toEqual([]);
  });

  it('statePath points into the vault _harness, follows the active plan, and checks which first', async () => {
    const w = await world();
    const harness = join(w.memoryRoot, 'desk', 'projects', 'proj', '_harness');
    expect(await readOnly(w.home, () => statePath(w.ctx, 'progress'))).toBe(join(harness, 'progress.md'));
    expect(await statePath({ ...w.ctx, plan: 'foo' }, 'plan')).toBe(join(harness, 'PLAN-foo.md'));
    await writeFile(join(harness, 'PLAN-bound.md'), '- [ ] x\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'bound\n');
    expect(await readOnly(w.home, () => statePath(w.ctx, 'progress'))).toBe(join(harness, 'progress-bound.md'));
    await expect(statePath({ ...w.ctx, cwd: '/nonexistent' }, 'roadmap' as 'plan')).rejects.toBeInstanceOf(
      StatePathArgumentError,
    );
  });

  it('statePath propagates a dangling marker, an unsafe plan and selection errors (never degrades)', async () => {
    const w = await world();
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'ghost');
    expect(await readOnly(w.home, () => statePath(w.ctx, 'plan'))).toBeInstanceOf(ActivePlanError);
    await expect(statePath({ ...w.ctx, plan: '../x' }, 'plan')).rejects.toBeInstanceOf(UnsafePlanNameError);
    const missing = await world({ vault: 'missing' });
    expect(await readOnly(missing.home, () => statePath(missing.ctx, 'plan'))).toBeInstanceOf(StorageSelectionError);
  });

  it('a corrupt config is loud on every call, and nothing is written', async () => {
    const w = await world({ vault: 'none' });
    await mkdir(join(w.home, 'prefix'));
    await writeFile(configFilePath(w.ctx.host!), '{"storage.backend": ');
    const calls: Array<() => Promise<unknown>> = [
      () => recallHere(w.ctx),
      () => offerSaveHere(w.ctx, { kind: 'x' }),
      () => statePath(w.ctx, 'plan'),
    ];
    for (const call of calls) {
      const error = await readOnly<unknown>(w.home, call);
      expect(error).toBeInstanceOf(StorageSelectionError);
      expect((error as StorageSelectionError).cause).toBeInstanceOf(CorruptConfigError);
    }
  });
});
