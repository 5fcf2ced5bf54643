import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote } from '@agentm/core';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { buildFaultShim } from './helpers/fault-shim.js';
import { tempDir } from './helpers/temp.js';

/**
 * `evolve` killed between its two writes (issue 11 item 10, issue 20 §1): real SIGKILLs, landing the
 * moment the archive appears (the shim delays the note's own rename, so that moment is a half-done
 * evolve for certain) or after a delay spread over the process's life. After each kill: `agentm doctor`
 * reports a half-done evolve exactly when there is one, recall never shows two current versions,
 * `doctor --fix` finishes it under the lock, and the evolve run again ends in one active note with the
 * new text and one archive with the old.
 */
const shim = buildFaultShim();
const RUNS = 4; // kills per case (see KILLS)

/** Every file under `dir` (store-relative keys), temps included. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const key = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(join(dir, e.name), key)));
    else out.push(key);
  }
  return out;
}

/** One saved note in a fresh vault, copied from a template saved once with `agentm save`. */
async function template() {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  await mkdir(root, { recursive: true });
  const saved = await runAgentm(['save', 'fix', 'lock', '--body-file', '-'], {
    home,
    env: { MEMORY_VAULT_PATH: root },
    stdin: 'the old advice about locks\n',
  });
  expect(saved.code, saved.stderr).toBe(0);
  return root;
}

type Moment = 'before-archive' | 'half-done' | 'successor-written' | 'finished';

/**
 * What the store held when the kill landed: half-done is an archive beside a note still holding the old
 * text; renaming, the successor may stand beside them too.
 */
async function momentOf(root: string): Promise<Moment> {
  const archives = (await filesUnder(join(root, 'memory', '_archive'))).filter(
    (k) => !k.split('/').pop()!.startsWith('.'),
  );
  if (archives.length === 0) return 'before-archive';
  const old = await readFile(join(root, 'memory', 'fix', 'lock.md'), 'utf8').catch(() => '');
  if (!old.includes('the old advice')) return 'finished';
  const successor = await readFile(join(root, 'memory', 'fix', 'lock-v2.md'), 'utf8').catch(() => '');
  return successor === '' ? 'half-done' : 'successor-written';
}

function evolveArgs(rename: boolean): string[] {
  return [
    'evolve',
    'memory/fix/lock.md',
    '--reason',
    'the lock moved',
    '--body-file',
    '-',
    ...(rename ? ['--new-slug', 'lock-v2'] : []),
  ];
}

/**
 * When a run's kill lands: the moment its archive appears, the moment its renamed successor appears, or
 * after a delay (spread over the process's life).
 */
type KillAt = 'archive' | 'successor' | number;

const KILLS: Record<'same' | 'rename', readonly KillAt[]> = {
  same: [300, 'archive', 1200, 'archive'],
  rename: [700, 'archive', 'successor', 'successor'],
};

/** `agentm evolve` SIGKILLed at `at`; its note's rename and unlink are delayed, so each moment is wide. */
async function killedEvolve(home: string, root: string, at: KillAt, rename: boolean): Promise<void> {
  const archiveDir = join(root, 'memory', '_archive', 'memory', 'fix');
  await mkdir(archiveDir, { recursive: true });
  const child = spawn(AGENTM_BIN, evolveArgs(rename), {
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      MEMORY_VAULT_PATH: root,
      LD_PRELOAD: shim,
      AGENTM_FAULT_RENAME_DELAY: join(root, 'memory', 'fix'),
      AGENTM_FAULT_UNLINK_DELAY: join(root, 'memory', 'fix'),
      AGENTM_FAULT_RENAME_DELAY_MS: '400',
    },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end('the new advice about locks\n');
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const kill = () => child.kill('SIGKILL');
  if (typeof at === 'number') {
    const timer = setTimeout(kill, at);
    await exited;
    clearTimeout(timer);
    return;
  }
  const [dir, wanted] =
    at === 'archive' ? [archiveDir, /^lock\.md\.\d{8}\.md$/] : [join(root, 'memory', 'fix'), /^lock-v2\.md$/];
  const watcher = watch(dir, (_event, name) => {
    if (name && wanted.test(name)) kill();
  });
  await exited;
  watcher.close();
}

async function crashAndRecover(
  source: string,
  run: number,
  rename: boolean,
): Promise<{ moment: Moment; problems: string[] }> {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  await cp(source, root, { recursive: true });
  const cli = (args: string[], stdin?: string) =>
    runAgentm(args, { home, env: { MEMORY_VAULT_PATH: root }, ...(stdin !== undefined ? { stdin } : {}) });
  await killedEvolve(home, root, KILLS[rename ? 'rename' : 'same'][run]!, rename);
  const moment = await momentOf(root);
  const problems: string[] = [];
  const evolvesRow = async () =>
    (JSON.parse((await cli(['doctor', '--json'])).stdout) as { id: string; status: string; line: string }[]).find(
      (r) => r.id === 'evolves',
    );
  const before = await evolvesRow();
  if ((before?.status === 'warn') !== (moment === 'half-done' || moment === 'successor-written'))
    problems.push(`doctor says ${before?.status} after a kill at ${moment}: ${before?.line}`);
  const recalled = JSON.parse((await cli(['recall', 'advice about locks', '--json'])).stdout) as {
    items: { locator: string }[];
  };
  const current = recalled.items.filter((i) => /^memory\/fix\/lock(-v2)?\.md$/.test(i.locator));
  if (current.length !== 1) problems.push(`recall shows ${current.length} current versions`);
  const fixed = await cli(['doctor', '--fix', '--json']);
  const after = await evolvesRow();
  if (after?.status !== 'ok' || !after.line.includes('no evolve left half-done'))
    problems.push(`after doctor --fix: ${after?.line} (${fixed.stderr.trim()})`);
  const again = await cli(evolveArgs(rename), 'the new advice about locks\n');
  if (again.code !== 0) problems.push(`re-run exit ${again.code}: ${again.stderr.trim()}`);
  const files = (await filesUnder(join(root, 'memory'))).filter((k) => !k.split('/').pop()!.startsWith('.'));
  const archives = files.filter((k) => k.startsWith('_archive/'));
  const notes = files.filter((k) => !k.startsWith('_archive/'));
  if (archives.length !== 1) problems.push(`${archives.length} archives: ${archives.join(', ')}`);
  if (notes.join() !== (rename ? 'fix/lock-v2.md' : 'fix/lock.md')) problems.push(`notes: ${notes.join(', ')}`);
  const note = parseNote(await readFile(join(root, 'memory', notes[0] ?? 'none'), 'utf8').catch(() => ''));
  if (note.status !== 'active' || note.body !== 'the new advice about locks\n')
    problems.push('the note is not the new one');
  if (note.supersedes !== `memory/${archives[0]}`) problems.push(`supersedes ${note.supersedes} ≠ ${archives[0]}`);
  if (archives.length === 1) {
    const archived = parseNote(await readFile(join(root, 'memory', archives[0]!), 'utf8'));
    if (archived.status !== 'superseded' || archived.body !== 'the old advice about locks\n')
      problems.push('the archive is not the old note');
  }
  return { moment, problems: problems.map((p) => `run ${run}${rename ? ' (rename)' : ''}: ${p}`) };
}

describe.skipIf(!shim)('evolve across a crash: doctor finds and finishes it, recall shows one version', () => {
  it.each([false, true])('rename %s: evolves SIGKILLed at chosen and random moments', async (rename) => {
    const source = await template();
    const outcomes = await Promise.all(Array.from({ length: RUNS }, (_, run) => crashAndRecover(source, run, rename)));
    const moments = outcomes.map((o) => o.moment);
    console.log(`evolve crash runs (rename ${rename}): ${RUNS} kills; landed ${JSON.stringify(moments)}`);
    expect(outcomes.flatMap((o) => o.problems)).toEqual([]);
    // The dangerous moments were really exercised.
    expect(moments).toContain('half-done');
    if (rename) expect(moments).toContain('successor-written');
  });
});
