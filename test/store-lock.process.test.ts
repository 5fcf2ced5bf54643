import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { buildFaultShim } from './helpers/fault-shim.js';
import { tempDir } from './helpers/temp.js';

/**
 * Every store takes the lock (issue 20 §1): on one machine the CLI, `agentm mcp`, the hooks and the
 * editors write the device-local store concurrently, exactly as they write a vault. Without the lock
 * two writers that interleave their hash check and their rename both succeed, and one write is gone.
 * The shim delays each rename, so that interleaving is certain rather than lucky.
 */
const shim = buildFaultShim();

/** A fresh HOME with no config and no vault: the device-local store `~/.agentm/memory` is selected. */
async function deviceLocalHome() {
  const home = await tempDir('agentm-dl-');
  return { home, root: join(home, '.agentm', 'memory') };
}

const registered = async (root: string) =>
  (JSON.parse(await readFile(join(root, '_meta', 'repos.json'), 'utf8')) as { repos: { slug: string }[] }).repos
    .map((r) => r.slug)
    .sort();

describe('the device-local store takes the lock, as the vault does', () => {
  it('12 concurrent `agentm repos register` processes: every registration is kept', async () => {
    const { home, root } = await deviceLocalHome();
    const slugs = Array.from({ length: 12 }, (_, i) => `repo-${String(i).padStart(2, '0')}`);
    const results = await Promise.all(
      slugs.map((slug) => runAgentm(['repos', 'register', slug, '--root', `/srv/${slug}`], { home })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await registered(root)).toEqual(slugs);
  });

  it.skipIf(!shim)('with every rename delayed 300 ms, 4 interleaving registrations are all kept', async () => {
    const { home, root } = await deviceLocalHome();
    const env = { LD_PRELOAD: shim, AGENTM_FAULT_RENAME_DELAY: root, AGENTM_FAULT_RENAME_DELAY_MS: '300' };
    const slugs = ['alpha', 'beta', 'gamma', 'delta'];
    const results = await Promise.all(
      slugs.map((slug) => runAgentm(['repos', 'register', slug, '--root', `/srv/${slug}`], { home, env })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await registered(root)).toEqual([...slugs].sort());
  });

  it.skipIf(!shim)(
    'two same-slug saves with the rename delayed: one lands, the other is refused, none is lost',
    async () => {
      const { home, root } = await deviceLocalHome();
      const env = { LD_PRELOAD: shim, AGENTM_FAULT_RENAME_DELAY: root, AGENTM_FAULT_RENAME_DELAY_MS: '300' };
      const save = (body: string) =>
        runAgentm(['save', 'fix', 'same-slug', '--body-file', '-'], { home, env, stdin: `${body}\n` });
      const [a, b] = await Promise.all([save('version a'), save('version b')]);
      const outcomes = [a, b].map((r) => r.code).sort();
      expect(outcomes, `${a.stderr}\n${b.stderr}`).toEqual([0, 2]);
      const winner = a.code === 0 ? 'version a' : 'version b';
      const loser = a.code === 0 ? b : a;
      expect(loser.stderr).toMatch(/already exists|appeared/);
      const note = parseNote(await readFile(join(root, 'memory', 'fix', 'same-slug.md'), 'utf8'));
      expect(note.body).toBe(`${winner}\n`);
    },
  );
});
