import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote } from '@agentm/core';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

const RUNS = 32;

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
    stdin: 'the old advice\n',
  });
  expect(saved.code, saved.stderr).toBe(0);
  return root;
}

type Moment = 'before-archive' | 'archive-only' | 'finished';

/** What the store held when the kill landed. */
async function momentOf(root: string, rename: boolean): Promise<Moment> {
  const archives = (await filesUnder(join(root, 'memory', '_archive'))).filter(
    (k) => k.endsWith('.md') && !/\.tmp$/.test(k),
  );
  if (archives.length === 0) return 'before-archive';
  const note = await readFile(join(root, 'memory', 'fix', rename ? 'lock-v2.md' : 'lock.md'), 'utf8').catch(() => '');
  return note.includes('the new advice') ? 'finished' : 'archive-only';
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
 * Starts `agentm evolve` and SIGKILLs it: on odd runs the moment its archive lands (watching the
 * archive folder), on even runs after a random delay over its whole life.
 */
async function killedEvolve(home: string, root: string, run: number, rename: boolean): Promise<void> {
  const archiveDir = join(root, 'memory', '_archive', 'memory', 'fix');
  await mkdir(archiveDir, { recursive: true });
  const child = spawn(AGENTM_BIN, evolveArgs(rename), {
    env: { PATH: process.env['PATH'], HOME: home, XDG_CACHE_HOME: join(home, '.cache'), MEMORY_VAULT_PATH: root },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end('the new advice\n');
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const kill = () => child.kill('SIGKILL');
  if (run % 2 === 1) {
    const watcher = watch(archiveDir, (_event, name) => {
      if (name && !name.startsWith('.') && name.endsWith('.md')) kill();
    });
    await exited;
    watcher.close();
  } else {
    const timer = setTimeout(kill, 100 + ((run * 7919) % 4000));
    await exited;
    clearTimeout(timer);
  }
}

describe('evolve across a crash (issue 11, item 10)', () => {
  it(`${RUNS} evolves SIGKILLed at chosen and random moments, each re-run: one active note, one archive, no duplicate`, async () => {
    const source = await template();
    const moments: Record<Moment, number> = { 'before-archive': 0, 'archive-only': 0, finished: 0 };
    const failures: string[] = [];
    const one = async (run: number) => {
      const home = await tempDir();
      const root = join(home, 'Vault', 'Agent');
      await cp(source, root, { recursive: true });
      const rename = run % 4 >= 2;
      await killedEvolve(home, root, run, rename);
      moments[await momentOf(root, rename)]++;
      const again = await runAgentm(evolveArgs(rename), {
        home,
        env: { MEMORY_VAULT_PATH: root },
        stdin: 'the new advice\n',
      });
      const files = (await filesUnder(join(root, 'memory'))).filter((k) => !k.split('/').pop()!.startsWith('.'));
      const archives = files.filter((k) => k.startsWith('_archive/'));
      const notes = files.filter((k) => !k.startsWith('_archive/'));
      const active = await Promise.all(
        notes.map(async (k) => parseNote(await readFile(join(root, 'memory', k), 'utf8'))),
      );
      const problems = [
        again.code === 0 ? '' : `re-run exit ${again.code}: ${again.stderr.trim()}`,
        archives.length === 1 ? '' : `${archives.length} archives: ${archives.join(', ')}`,
        notes.length === 1 && notes[0] === (rename ? 'fix/lock-v2.md' : 'fix/lock.md')
          ? ''
          : `notes: ${notes.join(', ')}`,
        active.every((n) => n.status === 'active' && n.body === 'the new advice\n')
          ? ''
          : 'the note is not the new one',
        active[0]?.supersedes === `memory/${archives[0]}` ? '' : `supersedes ${active[0]?.supersedes} ≠ ${archives[0]}`,
      ].filter(Boolean);
      if (archives.length === 1) {
        const archived = parseNote(await readFile(join(root, 'memory', archives[0]!), 'utf8'));
        if (archived.status !== 'superseded' || archived.body !== 'the old advice\n')
          problems.push('archive is not the old note');
      }
      if (problems.length > 0) failures.push(`run ${run}${rename ? ' (rename)' : ''}: ${problems.join('; ')}`);
    };
    // Four at a time: each run has its own vault and cache; the machine stays responsive.
    for (let run = 0; run < RUNS; run += 4) await Promise.all([0, 1, 2, 3].map((i) => one(run + i)));
    // Figures for the report: where the kills landed.
    console.log(`evolve crash runs: ${RUNS} kills; landed ${JSON.stringify(moments)}; failures ${failures.length}`);
    expect(failures).toEqual([]);
    expect(moments['archive-only']).toBeGreaterThan(0); // the dangerous moment was really exercised
  }, 600_000);
});
