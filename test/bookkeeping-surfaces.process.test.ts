import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BOOKKEEPING_TEXT,
  MIXED_PROGRESS_LOG,
  MIXED_PROGRESS_MEMORIES,
  MIXED_PROGRESS_QUERIES,
} from '@agentm/core/testing';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, runHook } from './helpers/claude-hooks.js';
import { runAgentm } from './helpers/cli.js';
import { connectMcp, resultJson, resultText } from './helpers/mcp-client.js';

// Issue 19: bookkeeping is never a memory, in any surface. One progress log mixes every form of it
// (today's harness, an older AgentM's, agentm's dated sections, a person's own lines) with the entries
// that are memories; each surface, run as the agent or the user runs it, is asked with words the
// bookkeeping holds, and must show none of it — and the memories by their human titles.

const ROOMY = 60_000; // the hook's own deadline, raised: this test is about content, not time

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  await writeFile(
    join(world.harness, 'PLAN.md'),
    '# Plan\n\n- [x] build the extension [id:: build]\n- [ ] write the docs [id:: docs]\n',
  );
  await writeFile(join(world.harness, 'progress.md'), MIXED_PROGRESS_LOG);
  await mkdir(join(world.memoryRoot, 'desk/projects/proj/fix'), { recursive: true });
  await writeFile(
    join(world.memoryRoot, 'desk/projects/proj/fix/docs-build.md'),
    '---\ntype: fix\nstatus: active\n---\n\n# Docs build in CI\n\nThe docs build runs mkdocs with the strict flag in CI.\n',
  );
});

describe('bookkeeping is never a memory (issue 19)', { timeout: 120_000 }, () => {
  it('agentm recall: no bookkeeping for any query, the memories by their titles', async () => {
    const titles = new Set<string>();
    for (const text of MIXED_PROGRESS_QUERIES) {
      const r = await runAgentm(['recall', text, '--json', '--k', '50'], { home: world.home, cwd: world.repo });
      expect(r.code, r.stderr).toBe(0);
      const items = (JSON.parse(r.stdout) as { items: Array<{ title: string; snippet: string }> }).items;
      for (const item of items) expect(`${item.title}\n${item.snippet}`).not.toMatch(BOOKKEEPING_TEXT);
      for (const item of items) titles.add(item.title);
    }
    for (const title of MIXED_PROGRESS_MEMORIES) expect(titles).toContain(title);
  });

  it('agentm recall-here (phase recall, with and without a query): no bookkeeping', async () => {
    for (const args of [['--phase', 'work'], ...MIXED_PROGRESS_QUERIES.map((q) => ['--query', q])]) {
      const r = await runAgentm(['recall-here', '--cwd', world.repo, ...args], { home: world.home });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(BOOKKEEPING_TEXT);
    }
    const recent = await runAgentm(['recall-here', '--cwd', world.repo, '--phase', 'work'], { home: world.home });
    expect(recent.stdout).toContain('### Pinned mkdocs to 1.6 because 1.7 broke the navigation sidebar');
  });

  it('agentm mcp: recall and session_context show no bookkeeping', async () => {
    const mcp = await connectMcp(world);
    for (const query of MIXED_PROGRESS_QUERIES) {
      const items = resultJson<{ items: Array<{ title: string; snippet: string }> }>(
        await mcp.call('recall', { query, k: 50 }),
      ).items;
      for (const item of items) expect(`${item.title}\n${item.snippet}`).not.toMatch(BOOKKEEPING_TEXT);
      expect(resultText(await mcp.call('session_context', { phase: 'work', query }))).not.toMatch(BOOKKEEPING_TEXT);
    }
    const found = resultJson<{ items: Array<{ title: string }> }>(
      await mcp.call('recall', { query: 'esbuild mirror uploads' }),
    );
    expect(found.items.map((i) => i.title)).toEqual(
      expect.arrayContaining([
        'build: the esbuild cache directory is shared between the read workers',
        'the artifact mirror rejects uploads over two gigabytes',
      ]),
    );
    expect(resultText(await mcp.call('session_context', { phase: 'work' }))).not.toMatch(BOOKKEEPING_TEXT);
  });

  it('the prompt hook injects no bookkeeping, and the memory the prompt is about', async () => {
    for (const prompt of [...MIXED_PROGRESS_QUERIES, 'where do the esbuild read workers keep their cache?']) {
      const r = await runHook('user-prompt-submit', world, await hookPayload('user-prompt-submit', world, { prompt }), {
        budgetMs: ROOMY,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(BOOKKEEPING_TEXT);
      if (prompt.startsWith('where'))
        expect(r.stdout).toContain(
          '**build: the esbuild cache directory is shared between the read workers** (episode)',
        );
    }
  });
});
