import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { processHost } from '../../src/config/host.js';
import { sessionStart } from '../../src/agents/hooks/session-start.js';
import type { HookContext } from '../../src/agents/hooks/hook-context.js';
import type { Raced } from '../../src/agents/hooks/budget.js';
import { Workspace } from '../../src/workspace/workspace.js';

/** A repository bound to project `proj` in a vault with a plan and an always-load note. */
async function setUp() {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  const harness = join(root, 'desk', 'projects', 'proj', '_harness');
  const repo = join(home, 'repo');
  await mkdir(harness, { recursive: true });
  await mkdir(join(root, 'memory', '_always-load'), { recursive: true });
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(harness, 'PLAN.md'), '- [ ] first [id:: first]\n');
  await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: 'proj' }));
  await writeFile(
    join(root, 'memory', '_always-load', 'pnpm.md'),
    '---\ntype: preference\nstatus: active\nalways_load: true\n---\n\n# Use pnpm\n\nAlways pnpm.\n',
  );
  const env = { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), MEMORY_VAULT_PATH: root };
  const ws = await Workspace.open({ host: processHost(env), projectRoot: repo, createRoot: false });
  return { ws, env, project: (await ws.project())! };
}

/** The hook's context with a budget that runs out at the `late`-th part (1-based): that part is "late". */
function context(s: Awaited<ReturnType<typeof setUp>>, late: number | undefined, order: string[]): HookContext {
  let part = 0;
  return {
    payload: {},
    env: s.env,
    ws: s.ws,
    project: s.project,
    warn: () => undefined,
    race: async <T>(work: Promise<T>): Promise<Raced<T>> => {
      part++;
      order.push(`start ${part}`);
      if (part === late) {
        work.catch(() => undefined);
        return { done: false };
      }
      const value = await work;
      order.push(`end ${part}`);
      return { done: true, value };
    },
    confirm: undefined,
    now: () => new Date(),
  };
}

const additional = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;

describe('SessionStart', () => {
  it('reads the plan state first, each part after the last one ended, and says nothing is left out when nothing is', async () => {
    const s = await setUp();
    const order: string[] = [];
    const text = additional((await sessionStart(context(s, undefined, order))).stdout);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(text).toContain('## AgentM plan state · proj');
    expect(text).toContain('Use pnpm');
    expect(text).not.toContain('left out');
  });

  it('tells the agent which part the budget cut and how to get it, and still gives the plan state', async () => {
    const s = await setUp();
    const text = additional((await sessionStart(context(s, 3, []))).stdout);
    expect(text).toContain('## AgentM plan state · proj');
    expect(text).toContain(
      '## AgentM: left out of this session start\n\n- the check for sync conflict copies: not read within the session-start budget; agentm reindex lists them.',
    );
    const cutAlways = additional((await sessionStart(context(s, 2, []))).stdout);
    expect(cutAlways).not.toContain('Use pnpm');
    expect(cutAlways).toContain(
      '- the always-load memories: not read within the session-start budget; recall them with',
    );
  });

  it('when even the plan state is late, the agent is told to read it, not left to think there is none', async () => {
    const s = await setUp();
    const text = additional((await sessionStart(context(s, 1, []))).stdout);
    expect(text).not.toContain('## AgentM plan state');
    expect(text).toContain(
      '- the plan state: not read within the session-start budget; read it with the read_plan tool',
    );
  });
});
