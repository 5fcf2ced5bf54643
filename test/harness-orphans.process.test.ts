import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { FIXTURES, spawnProcess } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

const KILLS = 5;

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lines = async (file: string) =>
  existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter(Boolean) : [];

/** Whether `pid` runs (a zombie has exited: this machine's init reaps orphans lazily). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

// Linux: the fixture and the checks read /proc (whether a process group still has live members).
describe.skipIf(process.platform !== 'linux')('a killed run leaves no step running twice', () => {
  it(`SIGKILL mid-step, ${KILLS} times: the next run ends the old command's group before the step runs again`, async () => {
    const home = await tempDir();
    const repo = join(home, 'repo');
    await mkdir(join(repo, '.harness'), { recursive: true });
    const env = {
      PATH: process.env['PATH'],
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, 'state'),
      AGENTM_INSTALL_PREFIX: join(home, '.claude'),
    };
    const figures = { kills: 0, overlaps: 0, survivorsAfterKill: 0, leftRunning: 0 };
    const stragglers: number[] = [];
    try {
      for (let round = 0; round < KILLS; round++) {
        const side = join(home, `side-${round}.log`);
        const marker = join(home, `group-${round}`);
        const plan = join(repo, '.harness', 'PLAN-crash.md');
        await rm(join(repo, '.harness', 'progress-crash.md'), { force: true });
        await writeFile(
          plan,
          `- [ ] long job [id:: s1] [cmd:: '${process.execPath}' '${FIXTURES}orphan-step.mjs' '${side}' '${marker}']\n`,
        );
        const first = spawnProcess(AGENTM_BIN, ['run', '--yes', '--plan', 'crash'], env, {
          cwd: repo,
          replaceEnv: true,
        });
        await waitFor(async () => (await lines(side)).some((l) => l.startsWith('grandchild ')), 'attempt 0 to start');
        first.child.kill('SIGKILL');
        await first.exited;
        figures.kills++;
        const firstLines = await lines(side);
        const leader = Number(/pid=(\d+)/.exec(firstLines.find((l) => l.startsWith('start attempt=0'))!)![1]);
        const grandchild = Number(/grandchild (\d+)/.exec(firstLines.find((l) => l.startsWith('grandchild'))!)![1]);
        stragglers.push(leader, grandchild);
        // The defect's precondition: the command and its child outlive their agentm.
        if (alive(leader) && alive(grandchild)) figures.survivorsAfterKill++;

        const second = await runAgentm(['run', '--yes', '--plan', 'crash'], { home, cwd: repo, env });
        expect([second.code, second.stdout], second.stderr).toEqual([0, 'plan crash: done\n']);
        const all = await lines(side);
        figures.overlaps += all.filter((l) => l.startsWith('OVERLAP')).length;
        expect(all.filter((l) => l.startsWith('start')).map((l) => l.split(' ')[1])).toEqual([
          'attempt=0',
          'attempt=1',
        ]);
        expect(all.at(-1)).toBe('done attempt=1');
        if (alive(leader) || alive(grandchild)) figures.leftRunning++;
        const log = parseProgress(await readFile(join(repo, '.harness', 'progress-crash.md'), 'utf8'));
        expect(log.find((o) => o.data['reason'] === 'orphan_ended')).toMatchObject({
          kind: 'note',
          step: 's1',
          attempt: 1,
          data: { pgid: leader },
        });
        expect(parsePlan(await readFile(plan, 'utf8')).steps[0]).toMatchObject({ stored: 'done', attempt: 1 });
      }
    } finally {
      for (const pid of stragglers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    console.log(`orphan recovery: ${JSON.stringify(figures)}`);
    expect(figures).toEqual({ kills: KILLS, overlaps: 0, survivorsAfterKill: KILLS, leftRunning: 0 });
  }, 60_000);
});
