import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { hookPayload, runHook } from './helpers/claude-hooks.js';
import { connectMcp } from './helpers/mcp-client.js';
import { spawnFixture, until } from './helpers/processes.js';
import { DeviceLocalBackend } from '../packages/core/src/backends/device-local.js';
import { MemoryIndex } from '../packages/core/src/memory/indexing/memory-index.js';
import { defaultIndexRoot } from '../packages/core/src/memory/indexing/location.js';
import { noteToDocument } from '../packages/core/src/memory/note-documents.js';

/**
 * The staleness bound of an answer without a running `agentm mcp` (README, "How fresh an answer is"):
 * a note AgentM wrote, through any writer, is in the next answer; a note another program added, removed
 * or renamed too; a note another program edited in place is in every answer that starts after a full
 * walk begun after the edit has finished (each answer starts one in the background when the last began
 * more than `memory.index.revalidate_after` ago). Every wait here is on a condition, never a sleep.
 */

const note = (title: string, body: string) =>
  `---\ntype: reference\nstatus: active\ncreated: 2026-01-05\nupdated: 2026-01-05\n---\n\n# ${title}\n\n${body}\n`;

async function world(revalidateAfter: string): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig({ ...vaultConfig(w), 'memory.index.revalidate_after': revalidateAfter });
  for (let i = 0; i < 30; i++)
    await writeFile(join(w.memoryRoot, 'memory', 'convention', `filler-${i}.md`), note(`Filler ${i}`, 'Nothing.'));
  await writeFile(join(w.harness, 'PLAN.md'), '# Plan\n\n- [ ] first [id:: first]\n');
  await writeFile(join(w.harness, 'progress.md'), '# Progress\n\n- 2026-01-05T10:00:00Z started the plan\n');
  // The index exists before anything below is written: answers catch up, they do not build.
  const built = await runAgentm(['reindex'], { home: w.home });
  expect(built.code, built.stderr).toBe(0);
  return w;
}

/** The index of the world's store, as the next process would open it (its marks: the last full walk). */
async function persistedIndex(w: AgentmWorld): Promise<MemoryIndex> {
  return MemoryIndex.open({
    backend: new DeviceLocalBackend({ root: w.memoryRoot, createRoot: false }),
    toDocument: noteToDocument,
    indexRoot: defaultIndexRoot({ XDG_CACHE_HOME: join(w.home, '.cache') }, w.home),
    lockRoot: join(w.home, '.cache', 'agentm', 'locks'),
  });
}

async function recallIds(w: AgentmWorld, text: string): Promise<string[]> {
  const r = await runAgentm(['recall', text, '--json', '--all-projects'], { home: w.home, cwd: w.repo });
  expect([0, 1], r.stderr).toContain(r.code);
  return r.code === 0 ? (JSON.parse(r.stdout) as { items: { id: string }[] }).items.map((i) => i.id) : [];
}

async function hookIds(w: AgentmWorld, prompt: string): Promise<string> {
  const r = await runHook('user-prompt-submit', w, await hookPayload('user-prompt-submit', w, { prompt }), {
    budgetMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('how fresh an answer is without a running agentm mcp', { timeout: 120_000 }, () => {
  it('a note saved by the CLI or by agentm mcp is in the next recall and prompt hook, without a full walk', async () => {
    const w = await world('1h');
    const walked = (await persistedIndex(w)).marks.walkedMs;
    const saved = await runAgentm(['save', 'fix', 'okapi-cli', '--group', 'memory', '--body-file', '-'], {
      home: w.home,
      stdin: 'The okapi timeout is fixed by raising the pool size.\n',
    });
    expect(saved.code, saved.stderr).toBe(0);
    expect(await recallIds(w, 'okapi')).toContain('memory/fix/okapi-cli.md');
    expect(await hookIds(w, 'what about the okapi timeout?')).toContain('okapi-cli.md');
    // An edit of a note the index knows (evolve writes the new body at the same path): its folder's listing
    // names nothing new; only the change log says it changed.
    const evolved = await runAgentm(
      ['evolve', 'memory/fix/okapi-cli.md', '--reason', 'a better fix', '--body-file', '-'],
      { home: w.home, stdin: 'The okapi timeout is fixed by the wombat retry policy.\n' },
    );
    expect(evolved.code, evolved.stderr).toBe(0);
    expect(await recallIds(w, 'wombat')).toEqual(['memory/fix/okapi-cli.md']);
    // Found through the change log: no answer walked the store (the last full walk is still the build's).
    expect((await persistedIndex(w)).marks.walkedMs).toBe(walked);

    // agentm mcp writes through the same store (and refreshes its own index, which it shares).
    const mcp = await connectMcp(w);
    const viaMcp = await mcp.call('save', {
      kind: 'fix',
      slug: 'okapi-mcp',
      body: 'Okapi fix filed by an agent: the gnu proxy drops idle sockets.',
      group: 'memory',
    });
    expect(viaMcp.isError, JSON.stringify(viaMcp)).toBeFalsy();
    // A progress note appended to the plan's log the index knows: a rewrite of a known file.
    const noted = await mcp.call('append_progress', { text: 'Found the capybara in the lock queue.' });
    expect(noted.isError, JSON.stringify(noted)).toBeFalsy();
    await mcp.client.close(); // no server answers the next recall: the process catches up itself
    expect(await recallIds(w, 'capybara')).toEqual([
      expect.stringMatching(/^desk\/projects\/proj\/_harness\/progress\.md#/),
    ]);
    expect(await recallIds(w, 'okapi')).toEqual(
      expect.arrayContaining(['memory/fix/okapi-cli.md', 'memory/fix/okapi-mcp.md']),
    );
    // A prompt only the new note answers (the hook injects strong matches only).
    expect(await hookIds(w, 'why does the gnu proxy drop idle sockets?')).toContain('okapi-mcp.md');
  });

  it('the journal an answer appends to is folded into the snapshot in the background: later answers replay nothing', async () => {
    const w = await world('1h'); // no walk is due: the journal's changes alone start the background refresh
    const walked = (await persistedIndex(w)).marks.walkedMs;
    const saved = await runAgentm(['save', 'fix', 'okapi-folded', '--group', 'memory', '--body-file', '-'], {
      home: w.home,
      stdin: 'The okapi queue drains once the tapir worker restarts.\n',
    });
    expect(saved.code, saved.stderr).toBe(0);
    // This answer catches up (a journal entry) and asks for the background refresh, which folds it.
    expect(await recallIds(w, 'tapir')).toEqual(['memory/fix/okapi-folded.md']);
    const journal = join((await persistedIndex(w)).dir, 'journal.log');
    await until(
      async () => !(await readFile(journal, 'utf8').catch(() => '')).includes('"op":"put"'),
      'the journal folded into the snapshot',
    );
    const folded = await persistedIndex(w);
    expect(folded.changesPending).toBe(false);
    expect(folded.state.docs.has('memory/fix/okapi-folded.md')).toBe(true);
    expect(folded.marks.walkedMs).toBe(walked); // folded, not walked
    expect(await recallIds(w, 'tapir')).toEqual(['memory/fix/okapi-folded.md']);
  });

  it('a note another program adds is in the next answer, and one it deletes is gone from it', async () => {
    const w = await world('1h');
    const walked = (await persistedIndex(w)).marks.walkedMs;
    expect(await recallIds(w, 'filler')).toContain('memory/convention/filler-3.md');
    await mkdir(join(w.memoryRoot, 'memory', 'reference'), { recursive: true });
    // A sync client's arrival (temp then rename) and a git checkout's new folder.
    await writeFile(join(w.memoryRoot, 'memory', 'reference', '.pangolin.tmp'), note('Pangolin', 'Synced in.'));
    const { rename } = await import('node:fs/promises');
    await rename(
      join(w.memoryRoot, 'memory', 'reference', '.pangolin.tmp'),
      join(w.memoryRoot, 'memory', 'reference', 'pangolin.md'),
    );
    await rm(join(w.memoryRoot, 'memory', 'convention', 'filler-3.md'));
    expect(await recallIds(w, 'pangolin')).toContain('memory/reference/pangolin.md');
    expect(await recallIds(w, 'filler')).not.toContain('memory/convention/filler-3.md');
    // Found by their folders' mtimes, without a full walk.
    expect((await persistedIndex(w)).marks.walkedMs).toBe(walked);
  });

  it('an edit another program makes in place is in every answer after a background walk begun after it', async () => {
    const w = await world('0s');
    const target = join(w.memoryRoot, 'memory', 'convention', 'filler-7.md');
    const edited = Date.now();
    await writeFile(target, note('Filler 7', 'Rewritten in place by an editor: the narwhal rule.'));
    // This answer may miss it; it starts the background walk (due: revalidate_after is 0s).
    await recallIds(w, 'narwhal');
    await until(async () => ((await persistedIndex(w)).marks.walkedMs ?? 0) >= edited, 'a walk begun after the edit');
    expect(await recallIds(w, 'narwhal')).toContain('memory/convention/filler-7.md');
  });

  it('answers with a note just saved while a background refresh holds the index, without waiting for it', async () => {
    const w = await world('1h');
    const index = await persistedIndex(w);
    const holder = spawnFixture('lock-holder.mjs', [
      index.dir,
      join(w.home, '.cache', 'agentm', 'locks'),
      '10000',
      'forever',
    ]);
    await holder.waitForLine(/^held /);
    const saved = await runAgentm(['save', 'fix', 'quokka', '--group', 'memory', '--body-file', '-'], {
      home: w.home,
      stdin: 'Quokka notes while the index is busy.\n',
    });
    expect(saved.code, saved.stderr).toBe(0);
    expect(await recallIds(w, 'quokka')).toContain('memory/fix/quokka.md');
    holder.child.kill('SIGTERM');
    await holder.exited;
    // Nothing was persisted by the answer that could not take the lock; the next one catches up and does.
    expect(await recallIds(w, 'quokka')).toContain('memory/fix/quokka.md');
    const after = await persistedIndex(w);
    expect(after.state.docs.has('memory/fix/quokka.md')).toBe(true);
  });
});
