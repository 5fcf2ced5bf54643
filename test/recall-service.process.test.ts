import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, runHook } from './helpers/claude-hooks.js';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { spawnProcess, type Spawned } from './helpers/processes.js';

// The recall service (issue 13.4): a running `agentm mcp` answers the prompt hook and `agentm recall`
// from its warm index over a private socket; without it they recall themselves, with the same answer.

const ROOMY = 60_000;

let world: AgentmWorld;
const servers: Spawned[] = [];

async function note(rel: string, fields: string, body: string): Promise<void> {
  await mkdir(join(world.memoryRoot, rel, '..'), { recursive: true });
  await writeFile(join(world.memoryRoot, rel), `---\n${fields}\n---\n\n${body}\n`);
}

const runDir = () => join(world.home, '.cache', 'agentm', 'run');

/** `agentm mcp` for the world's repo, as Claude Code starts it, with its stderr collected. */
function spawnServer(): Spawned & { stderr: () => string } {
  const server = spawnProcess(
    AGENTM_BIN,
    ['mcp'],
    { HOME: world.home, XDG_CACHE_HOME: join(world.home, '.cache') },
    {
      cwd: world.repo,
    },
  );
  servers.push(server);
  let stderr = '';
  server.child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return { ...server, stderr: () => stderr };
}

/** A server whose recall socket listens. */
async function startServer(): Promise<Spawned & { stderr: () => string }> {
  const server = spawnServer();
  const deadline = Date.now() + 60_000;
  while (!server.stderr().includes('memory index ready') || (await readdir(runDir()).catch(() => [])).length === 0) {
    if (server.child.exitCode !== null || server.stderr().includes('recall server off') || Date.now() > deadline)
      throw new Error(`agentm mcp did not start its recall server: ${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

async function stopServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.child.stdin!.end();
    await s.exited;
  }
}

const recall = async (text: string) => {
  const r = await runAgentm(['recall', text, '--json'], { home: world.home, cwd: world.repo });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { items: { locator: string; similarity: number; title: string }[] };
};
const ranking = (result: { items: { locator: string; similarity: number }[] }) =>
  result.items.map((i) => [i.locator, i.similarity.toFixed(6)]);

async function promptHook(prompt: string) {
  const r = await runHook('user-prompt-submit', world, await hookPayload('user-prompt-submit', world, { prompt }), {
    budgetMs: ROOMY,
  });
  expect(r.code).toBe(0);
  return { stdout: r.stdout, timing: /answered after \d+ ms.*; (.*)$/m.exec(r.stderr)?.[1] };
}

beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  await note(
    'memory/convention/lock-files.md',
    'type: convention\nstatus: active',
    '# Where the vault lock lives\n\nThe vault lock is a directory under ~/.cache/agentm/locks, never in the vault.',
  );
  await note(
    'desk/projects/proj/fix/flaky-watch.md',
    'type: fix\nstatus: active',
    '# Flaky watcher test\n\nThe watcher test flaked until the debounce waited for the rename of the lock.',
  );
  await note(
    'desk/projects/other/fix/other-lock.md',
    'type: fix\nstatus: active',
    '# Another project lock\n\nA lock in another project, out of scope for this repository.',
  );
});
afterEach(stopServers);

describe('recall from a running agentm mcp', () => {
  it('answers the prompt hook and agentm recall with the same ranking as without it', { timeout: 60_000 }, async () => {
    const alone = await recall('vault lock watcher');
    const aloneHook = await promptHook('where does the vault lock live');
    expect(aloneHook.timing).toBe('recalled in this process');
    expect(alone.items.map((i) => i.title)).toContain('Where the vault lock lives');

    const server = await startServer();
    const served = await recall('vault lock watcher');
    expect(ranking(served)).toEqual(ranking(alone));
    const servedHook = await promptHook('where does the vault lock live');
    expect(servedHook.timing).toBe(`recalled by agentm mcp, pid ${server.child.pid}`);
    expect(servedHook.stdout).toBe(aloneHook.stdout);
  });

  it(
    'an edit made just before the question is in the answer: a new note, then the same note changed',
    { timeout: 60_000 },
    async () => {
      await startServer();
      await note('memory/fix/new-zebra.md', 'type: fix\nstatus: active', '# Zebra crossing\n\nThe zebrafish fixture.');
      expect((await recall('zebrafish')).items.map((i) => i.title)).toEqual(['Zebra crossing']);
      // Changed in place, as an editor saves.
      const path = join(world.memoryRoot, 'memory/fix/new-zebra.md');
      await writeFile(path, '---\ntype: fix\nstatus: active\n---\n\n# Okapi crossing\n\nThe okapi fixture.\n');
      const hook = await promptHook('okapi');
      expect(hook.timing).toMatch(/^recalled by agentm mcp/);
      expect(hook.stdout).toContain('Okapi crossing');
      expect((await recall('zebrafish')).items).toEqual([]);
    },
  );

  it(
    'a socket directory another account could enter is not used: recall answers itself',
    { timeout: 60_000 },
    async () => {
      await startServer();
      await chmod(runDir(), 0o755);
      const hook = await promptHook('where does the vault lock live');
      expect(hook.timing).toBe('recalled in this process');
      expect(hook.stdout).toContain('Where the vault lock lives');
    },
  );

  it(
    'a server that died leaves its socket: recalls answer themselves, and the next server takes it over',
    { timeout: 60_000 },
    async () => {
      const first = await startServer();
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await readdir(runDir())).toHaveLength(1); // the dead server's socket
      expect((await promptHook('vault lock')).timing).toBe('recalled in this process');
      const second = await startServer();
      expect((await promptHook('vault lock')).timing).toBe(`recalled by agentm mcp, pid ${second.child.pid}`);
    },
  );

  it('a second server for the same store leaves the first one answering', { timeout: 60_000 }, async () => {
    const first = await startServer();
    const second = spawnServer();
    while (!second.stderr().includes('recall server off')) await new Promise((r) => setTimeout(r, 50));
    expect(second.stderr()).toContain(
      'agentm mcp: recall server off: another agentm mcp answers recalls for this store',
    );
    expect((await promptHook('vault lock')).timing).toBe(`recalled by agentm mcp, pid ${first.child.pid}`);
  });
});
