import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote, parseProgress } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';

/** The harness's own status text: the progress lines a run writes only to keep its books. */
const BOOKKEEPING = /\[kind:: transition\]|ready → running|running → (done|failed)|→ ready|plan open → /;

const PLAN = [
  '---',
  'goal: check the build tools',
  '---',
  '# Check the build tools',
  '',
  '- [ ] print the greeting [id:: greet] [cmd:: echo the nightly build uses pnpm workspaces]',
  '- [ ] list the repo [id:: list] [cmd:: ls]',
  '- [ ] a failing check [id:: check] [cmd:: false]',
  '- [ ] after the check [id:: after] [after:: check] [cmd:: echo unreachable]',
  '',
].join('\n');

/** Every Markdown file under `dir`, relative to it. */
async function markdownFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else if (e.name.endsWith('.md')) out.push(relative(dir, join(d, e.name)));
    }
  };
  await walk(dir);
  return out.sort();
}

async function ranWorld(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await writeFile(join(w.harness, 'PLAN.md'), PLAN);
  const run = await runAgentm(['run', '--yes'], { home: w.home, cwd: w.repo });
  expect(run.stdout, run.stderr).toBe('plan PLAN: failed\n');
  const log = parseProgress(await readFile(join(w.harness, 'progress.md'), 'utf8'));
  // The run did keep its books (claims, results, releases of the failed step, the plan's status).
  expect(log.filter((o) => o.kind === 'transition').length).toBeGreaterThanOrEqual(6);
  expect(log.map((o) => o.kind)).toEqual(expect.arrayContaining(['tool_result', 'error']));
  return w;
}

describe("the harness's own bookkeeping is not memory (issue 10 item 7)", { timeout: 60_000 }, () => {
  it('after a real run, phase recall and recall return what the steps found, and no status bookkeeping', async () => {
    const w = await ranWorld();
    const here = await runAgentm(['recall-here', '--cwd', w.repo, '--phase', 'work'], { home: w.home });
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout).toContain('the nightly build uses pnpm workspaces');
    expect(here.stdout).not.toMatch(BOOKKEEPING);

    const queried = await runAgentm(['recall-here', '--cwd', w.repo, '--query', 'ready running done'], {
      home: w.home,
    });
    expect(queried.stdout).not.toMatch(BOOKKEEPING);

    for (const text of ['ready running', 'running done failed', 'nightly build']) {
      const found = await runAgentm(['recall', text, '--json', '--k', '50'], { home: w.home, cwd: w.repo });
      const items = (JSON.parse(found.stdout) as { items: Array<{ title: string; snippet: string }> }).items;
      for (const item of items) expect(`${item.title}\n${item.snippet}`).not.toMatch(BOOKKEEPING);
      if (text === 'nightly build') expect(items.length).toBeGreaterThan(0);
    }
  });

  it('consolidate without a model makes no belief from bookkeeping', async () => {
    const w = await ranWorld();
    const before = await markdownFiles(w.memoryRoot);
    const result = await runAgentm(['consolidate', '--json'], { home: w.home, cwd: w.repo });
    expect(result.code, result.stderr).toBe(0);
    const created = (await markdownFiles(w.memoryRoot)).filter((f) => !before.includes(f));
    for (const file of created) {
      const note = parseNote(await readFile(join(w.memoryRoot, file), 'utf8'));
      expect(`${file}\n${note.body}`).not.toMatch(BOOKKEEPING);
      expect(file).not.toMatch(/kind-transition/);
    }
    // And the recall of what consolidation wrote holds no bookkeeping either.
    const found = await runAgentm(['recall', 'ready running', '--json'], { home: w.home, cwd: w.repo });
    const items = (JSON.parse(found.stdout) as { items: Array<{ title: string; snippet: string }> }).items;
    for (const item of items) expect(`${item.title}\n${item.snippet}`).not.toMatch(BOOKKEEPING);
  });
});
