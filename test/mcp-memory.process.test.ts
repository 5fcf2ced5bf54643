import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { connectMcp, resultJson, resultText } from './helpers/mcp-client.js';
import { fileSnapshot } from './helpers/temp.js';

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  await mkdir(join(world.memoryRoot, 'memory', '_always-load'), { recursive: true });
  await writeFile(
    join(world.memoryRoot, 'memory', '_always-load', 'use-pnpm.md'),
    '---\ntype: preference\nstatus: active\nalways_load: true\n---\n\n# Use pnpm\n\nAlways pnpm, never npm.\n',
  );
  await writeFile(
    join(world.memoryRoot, 'memory', 'convention', 'lock-files.md'),
    '---\ntype: convention\nstatus: active\nslug: lock-files\n---\n\n# Where the vault lock lives\n\nUnder ~/.cache/agentm/locks, never in the vault.\n',
  );
});

const cli = (args: string[], stdin?: string) =>
  runAgentm(args, { home: world.home, cwd: world.repo, ...(stdin !== undefined ? { stdin } : {}) });

describe('agentm mcp: tools over stdio, through the SDK client', () => {
  it('lists its tools with honest annotations and object schemas, and its resource templates', async () => {
    const { client } = await connectMcp(world);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'append_progress',
      'doctor',
      'evolve',
      'list_plans',
      'read_plan',
      'recall',
      'save',
      'session_context',
      'update_step',
    ]);
    for (const name of ['recall', 'session_context', 'list_plans', 'read_plan', 'doctor'])
      expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('save')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('evolve')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const name of ['update_step', 'append_progress'])
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object'); // clients refuse a top-level union
      expect(tool.description!.length).toBeGreaterThan(80);
    }
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'agentm://note/{+path}',
      'agentm://plan/{name}',
      'agentm://progress/{name}',
    ]);
  });

  it('recalls a note, and one the CLI saved while the server runs (it follows file changes)', async () => {
    const mcp = await connectMcp(world);
    const first = resultJson<{ project: string; items: Array<{ path: string; file: string }> }>(
      await mcp.call('recall', { query: 'where does the vault lock live' }),
    );
    expect(first.project).toBe('proj');
    expect(first.items[0]).toMatchObject({
      path: 'memory/convention/lock-files.md',
      file: join(world.memoryRoot, 'memory/convention/lock-files.md'),
    });
    const saved = await cli(
      ['save', 'fix', 'fsync-dir', '--body-file', '-'],
      'After the rename, fsync the directory.\n',
    );
    expect(saved.code).toBe(0);
    const second = resultJson<{ items: Array<{ path: string }> }>(
      await mcp.call('recall', { query: 'fsync the directory after rename' }),
    );
    // The CLI in the repository files under its project, as the server's own save does.
    expect(second.items.map((i) => i.path)).toContain('desk/projects/proj/fix/fsync-dir.md');
  });

  it('session_context gives what recall-here gives', async () => {
    const mcp = await connectMcp(world);
    const viaMcp = resultText(await mcp.call('session_context', { phase: 'review' }));
    const viaCli = await cli(['recall-here', '--phase', 'review']);
    expect(viaCli.code).toBe(0);
    expect(viaMcp).toContain('Always pnpm, never npm.');
    expect(viaMcp).toBe(viaCli.stdout);
  });

  it("save files a project note in agentm's format and never overwrites: the second gets the CLI's message", async () => {
    const mcp = await connectMcp(world);
    const saved = resultJson(
      await mcp.call('save', {
        kind: 'decision',
        slug: 'pick-stdlib',
        body: 'Prefer the standard library.',
        tags: ['a'],
      }),
    );
    expect(saved).toEqual({
      saved: 'desk/projects/proj/convention/pick-stdlib.md',
      file: join(world.memoryRoot, 'desk/projects/proj/convention/pick-stdlib.md'),
      uri: 'agentm://note/desk/projects/proj/convention/pick-stdlib.md',
      scope: 'project',
      project: 'proj',
    });
    const text = await readFile(join(world.memoryRoot, 'desk/projects/proj/convention/pick-stdlib.md'), 'utf8');
    expect(text).toMatch(
      /^---\ntype: convention\nstatus: active\naltitude: artifact\ncreated: \d{4}-\d\d-\d\d\nupdated: \d{4}-\d\d-\d\d\ntags: \[a\]\ngroup: desk\/projects\/proj\nslug: pick-stdlib\n/,
    );
    const again = await mcp.call('save', { kind: 'decision', slug: 'pick-stdlib', body: 'Something else.' });
    const viaCli = await cli(
      ['save', 'decision', 'pick-stdlib', '--group', 'desk/projects/proj', '--body-file', '-'],
      'Something else.',
    );
    expect(again.isError).toBe(true);
    expect(viaCli.code).toBe(2);
    expect(`agentm: ${resultText(again)}\n`).toBe(viaCli.stderr);
    expect(resultText(again)).toContain('Use evolve to supersede it');
    expect(await readFile(join(world.memoryRoot, 'desk/projects/proj/convention/pick-stdlib.md'), 'utf8')).toBe(text);
  });

  it('a save racing a CLI writer on the same note: one wins, the other gets the conflict, nothing is lost', async () => {
    const mcp = await connectMcp(world);
    const dir = join(world.memoryRoot, 'desk', 'projects', 'proj', 'fix');
    for (let round = 0; round < 6; round++) {
      const slug = `race-${round}`;
      const [viaMcp, viaCli] = await Promise.all([
        mcp.call('save', { kind: 'fix', slug, body: `from mcp ${round}` }),
        cli(['save', 'fix', slug, '--group', 'desk/projects/proj', '--body-file', '-'], `from cli ${round}`),
      ]);
      const mcpWon = viaMcp.isError !== true;
      const cliWon = viaCli.code === 0;
      expect(mcpWon !== cliWon).toBe(true); // exactly one
      const loser = mcpWon ? viaCli.stderr : resultText(viaMcp);
      expect(loser).toContain(`entry already exists at desk/projects/proj/fix/${slug}.md`);
      const body = (await readFile(join(dir, `${slug}.md`), 'utf8')).split('---\n\n')[1];
      expect(body).toBe(mcpWon ? `from mcp ${round}\n` : `from cli ${round}\n`);
    }
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses bad arguments by schema before anything runs, as tool errors', async () => {
    const mcp = await connectMcp(world);
    const before = await fileSnapshot(world.vault);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['save', { kind: 'Fix!', slug: 'x', body: 'b' }],
      ['save', { kind: 'fix', slug: 'x' }],
      ['save', { kind: 'fix', slug: 'x', body: 'b', group: '../outside' }],
      ['save', { kind: 'fix', slug: 'x', body: 'b', tags: ['Not A Tag'] }],
      ['recall', { query: 'x', k: 0 }],
      ['recall', { query: 'x', window: 'a week' }],
      ['evolve', { path: 'memory/convention/lock-files.md', body: 'b', reason: 'r', new_slug: 'Bad Slug' }],
      ['update_step', { step: 'build', action: 'failed' }],
      ['update_step', { step: 'build', action: 'explode' }],
      ['append_progress', { text: '' }],
      ['session_context', { phase: 'lunch' }],
    ];
    for (const [tool, args] of bad) {
      const r = await mcp.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(resultText(r)).toMatch(/Input validation error/);
    }
    expect(await fileSnapshot(world.vault)).toEqual(before);
  });

  it('recall with empty text refuses as a tool error naming the fix (memQL: text is required)', async () => {
    const mcp = await connectMcp(world);
    for (const query of ['', ' \n ']) {
      const r = await mcp.call('recall', { query });
      expect(r.isError, JSON.stringify(query)).toBe(true);
      expect(resultText(r)).toContain('recall needs text to look for');
      expect(resultText(r)).toContain('session_context');
    }
    expect(resultJson(await mcp.call('recall', { query: 'vault lock' }))).toMatchObject({ mode: 'lexical' });
  });

  it('evolve supersedes a note and archives the old text; errors name the fix', async () => {
    const mcp = await connectMcp(world);
    const evolved = resultJson(
      await mcp.call('evolve', {
        path: join(world.memoryRoot, 'memory/convention/lock-files.md'),
        body: 'Under $XDG_CACHE_HOME/agentm/locks when set.',
        reason: 'XDG_CACHE_HOME is honoured',
      }),
    );
    expect(evolved).toMatchObject({ note: 'memory/convention/lock-files.md' });
    expect(String(evolved['archived'])).toMatch(/^memory\/_archive\/memory\/convention\/lock-files\.md\.\d{8}\.md$/);
    expect(await readFile(join(world.memoryRoot, 'memory/convention/lock-files.md'), 'utf8')).toContain(
      'XDG_CACHE_HOME/agentm/locks when set',
    );
    const outside = await mcp.call('evolve', { path: '/etc/passwd', body: 'b', reason: 'r' });
    expect(outside.isError).toBe(true);
    expect(resultText(outside)).toContain("give the note's path relative to the store");
    const viaCli = await cli(['evolve', '/etc/passwd', '--reason', 'r', '--body-file', '-'], 'b');
    expect([viaCli.code, viaCli.stderr]).toEqual([2, `agentm: ${resultText(outside)}\n`]);
    const missing = await mcp.call('evolve', { path: 'memory/fix/nope.md', body: 'b', reason: 'r' });
    expect(missing.isError).toBe(true);
  });

  it("a project slug a note group cannot hold (AgentM) is refused with the way out, not save's generic message", async () => {
    world = await agentmWorld({ slug: 'AgentM' });
    await world.writeConfig(vaultConfig(world));
    const mcp = await connectMcp(world);
    const refused = await mcp.call('save', { kind: 'fix', slug: 'x', body: 'b' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toBe(
      "this repository's project folder desk/projects/AgentM cannot be a note group (lower-case letters, digits and hyphens only): " +
        'file it as a global note (agentm save --global; scope global), or set vault_project in .harness/project.json to a lower-case slug',
    );
    expect(resultJson(await mcp.call('save', { kind: 'fix', slug: 'x', body: 'b', scope: 'global' }))).toMatchObject({
      saved: 'memory/fix/x.md',
      scope: 'global',
    });
  });

  it("doctor reports the workspace's checks: the store, the lock, the providers, the project and the index", async () => {
    const mcp = await connectMcp(world);
    await mcp.call('recall', { query: 'lock' }); // the index is built by the first answer that needs it
    const rows = resultJson<Array<{ id: string; status: string; message: string; line: string }>>(
      await mcp.call('doctor'),
    );
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['storage', 'ok'],
      ['lock', 'ok'],
      ['links', 'ok'],
      ['temps', 'ok'],
      ['conflicts', 'ok'],
      ['evolves', 'ok'],
      ['provider chat', 'info'],
      ['provider embeddings', 'info'],
      ['project', 'ok'],
      ['index', 'ok'],
    ]);
    expect(rows.find((r) => r.id === 'project')!.line).toContain(`plans in ${world.harness}`);
  });
});
