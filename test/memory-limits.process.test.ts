import { spawn } from 'node:child_process';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

const AGENTM_JS = fileURLToPath(new URL('../node_modules/@agentm/core/bin/agentm.js', import.meta.url));
const PROBE = pathToFileURL(fileURLToPath(new URL('./fixtures/rss-probe.mjs', import.meta.url))).href;
const MB = 1024 * 1024;

const note = (body: string, day = '2026-01-05') =>
  `---\ntype: reference\nstatus: active\ncreated: ${day}\nupdated: ${day}\ntags: [log]\n---\n\n${body}\n`;

/** A vault of small notes; `huge` adds one note of that many bytes (a pasted log) that starts and ends with a marker. */
async function vault(huge = 0) {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  await mkdir(join(root, 'memory', 'reference'), { recursive: true });
  for (let i = 0; i < 20; i++)
    await writeFile(join(root, 'memory', 'reference', `small-${i}.md`), note(`A small note ${i} about the build.`));
  if (huge > 0) {
    const line = (i: number) =>
      `2026-01-05 12:${String(i % 60).padStart(2, '0')}:00 INFO request ${i} took ${i % 997} ms\n`;
    const lines: string[] = ['headmarker\n'];
    let size = 0;
    for (let i = 0; size < huge; i++) size += (lines[lines.push(line(i)) - 1] as string).length;
    lines.push('tailmarker\n');
    await writeFile(join(root, 'memory', 'reference', 'pasted-log.md'), note(lines.join('')));
  }
  return { home, root, env: { MEMORY_VAULT_PATH: root } };
}

/** `agentm reindex` in a child process; its peak RSS in bytes. */
function reindexPeak(v: { home: string; env: Record<string, string> }): Promise<number> {
  const probe = join(v.home, 'rss.txt');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PROBE, AGENTM_JS, 'reindex'], {
      env: {
        PATH: process.env['PATH'],
        HOME: v.home,
        XDG_CACHE_HOME: join(v.home, '.cache'),
        AGENTM_INSTALL_PREFIX: join(v.home, '.claude'),
        AGENTM_RSS_PROBE: probe,
        ...v.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`agentm reindex exited ${code}: ${stderr}`));
      readFile(probe, 'utf8').then((kb) => resolve(Number(kb) * 1024), reject);
    });
  });
}

const ids = async (v: { home: string; env: Record<string, string> }, text: string) => {
  const r = await runAgentm(['recall', text, '--json', '--all-projects'], { home: v.home, env: v.env });
  return r.code === 0 ? (JSON.parse(r.stdout) as { items: { id: string }[] }).items.map((i) => i.id) : [];
};

describe('bounds on what the index reads', () => {
  it('a 40 MB note costs a bounded prefix, not memory in proportion to the note (peak RSS against the same vault without it)', async () => {
    const small = await vault();
    const large = await vault(40 * MB);
    const base = await reindexPeak(small);
    const peak = await reindexPeak(large);
    // Reading the note (its bytes and their text) is the floor; indexing all of it cost 30× its size.
    expect(peak - base).toBeLessThan(4 * 40 * MB);
    expect(await ids(large, 'headmarker')).toEqual(['memory/reference/pasted-log.md']);
    expect(await ids(large, 'tailmarker')).toEqual([]);
  }, 60_000);

  it('memory.index.max_note_chars sets the prefix, and a value it cannot mean is refused (exit 2)', async () => {
    const v = await vault();
    const text = `${'early words here. '.repeat(100)}latemarker`;
    await writeFile(join(v.root, 'memory', 'reference', 'long.md'), note(text));
    const config = join(v.home, '.claude', '.agentm-config.json');
    await mkdir(join(v.home, '.claude'), { recursive: true });
    await writeFile(config, JSON.stringify({ 'memory.index.max_note_chars': '1000' }));
    expect(await ids(v, 'latemarker')).toEqual([]);
    await writeFile(config, JSON.stringify({ 'memory.index.max_note_chars': 'lots' }));
    const bad = await runAgentm(['reindex', '--full'], { home: v.home, env: v.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('memory.index.max_note_chars is "lots": it takes a positive whole number');
  }, 60_000);

  it('memory.recall.note_half_life sets how fast a note ages; a bad duration is refused (exit 2)', async () => {
    const v = await vault();
    const key = join(v.root, 'memory', 'reference', 'small-0.md');
    const at = new Date(Date.now() - 2 * 86_400_000);
    const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
    await writeFile(key, note('A small note 0 about the build.', day));
    await utimes(key, at, at);
    const recency = async () => {
      const r = await runAgentm(['recall', 'small note 0', '--json', '--all-projects'], { home: v.home, env: v.env });
      return (JSON.parse(r.stdout) as { items: { id: string; recency: number }[] }).items.find((i) =>
        i.id.endsWith('small-0.md'),
      )!.recency;
    };
    expect(await recency()).toBeGreaterThan(0.9); // the default: 30 days
    const config = join(v.home, '.claude', '.agentm-config.json');
    await mkdir(join(v.home, '.claude'), { recursive: true });
    await writeFile(config, JSON.stringify({ 'memory.recall.note_half_life': '1d' }));
    expect(await recency()).toBeLessThan(0.3);
    await writeFile(config, JSON.stringify({ 'memory.recall.note_half_life': '30' }));
    const bad = await runAgentm(['recall', 'build'], { home: v.home, env: v.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('memory.recall.note_half_life is "30": it takes a duration such as "30d"');
  }, 60_000);

  it('memory.recall.formula: by default recency never lifts a weaker match over a better one; memql lets it; a bad value is refused (exit 2)', async () => {
    const v = await vault();
    const dir = join(v.root, 'memory', 'reference');
    const old = new Date(Date.now() - 200 * 86_400_000);
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await writeFile(
      join(dir, 'strong.md'),
      note(
        'The vault lock heartbeat refreshes the vault lock directory: the heartbeat runs every five seconds.',
        day(old),
      ),
    );
    await utimes(join(dir, 'strong.md'), old, old);
    await writeFile(
      join(dir, 'fresh.md'),
      note('A checklist of other things mentions the vault lock heartbeat once, among other words.', day(new Date())),
    );
    const first = async () =>
      (await ids(v, 'vault lock heartbeat')).filter((id) => id.endsWith('strong.md') || id.endsWith('fresh.md'))[0];
    expect(await first()).toBe('memory/reference/strong.md');
    const config = join(v.home, '.claude', '.agentm-config.json');
    await mkdir(join(v.home, '.claude'), { recursive: true });
    await writeFile(config, JSON.stringify({ 'memory.recall.formula': 'memql', 'memory.recall.note_half_life': '1d' }));
    expect(await first()).toBe('memory/reference/fresh.md');
    await writeFile(config, JSON.stringify({ 'memory.recall.formula': 'newest' }));
    const bad = await runAgentm(['recall', 'build'], { home: v.home, env: v.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('memory.recall.formula is "newest": it takes "prior"');
  }, 60_000);
});
