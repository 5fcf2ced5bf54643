import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import type { DispatchRequest } from '../../src/harness/reconciler/dispatcher.js';
import { parseDurationMs, runShellStep } from '../../src/harness/executors/shell-executor.js';
import { CommandSyntaxError, splitCommand } from '../../src/harness/command-exec/shell-words.js';
import { consentingPolicy } from './command-policy-helper.js';

describe('splitting a cmd:: into argv without a shell', () => {
  it.each([
    ['echo hi', ['echo', 'hi']],
    ['  node   -e  "x"  ', ['node', '-e', 'x']],
    [`printf '%s|%s' "a b" c\\ d`, ['printf', '%s|%s', 'a b', 'c d']],
    [`echo "say \\"hi\\" \\\\ now"`, ['echo', 'say "hi" \\ now']],
    [`echo ''`, ['echo', '']],
    [`echo '$(rm -rf /)' '; ls'`, ['echo', '$(rm -rf /)', '; ls']],
  ])('%s → %j', (cmd, argv) => {
    expect(splitCommand(cmd)).toEqual(argv);
  });

  it.each([
    ['echo a | wc', 'shell operator "|"'],
    ['make && make test', 'shell operator "&"'],
    ['ls; rm -rf /', 'shell operator ";"'],
    ['cat < x', 'shell operator "<"'],
    ['echo $(whoami)', 'shell operator "$"'],
    ['echo `id`', 'shell operator "`"'],
    ['echo "$HOME"', 'would be expanded by a shell'],
    ["echo 'open", 'single quote is not closed'],
    ['   ', 'it is empty'],
  ])('refuses %j (%s)', (cmd, why) => {
    expect(() => splitCommand(cmd)).toThrow(CommandSyntaxError);
    expect(() => splitCommand(cmd)).toThrow(why);
  });

  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['500ms', 500],
    ['2', 2000],
    ['soon', undefined],
  ])('duration %j → %s ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });
});

function request(line: string, extra: Partial<DispatchRequest> = {}): DispatchRequest {
  const plan = parsePlan(`${line}\n`);
  return {
    plan,
    step: plan.steps[0]!,
    planName: 'demo',
    stepKey: 'key-123',
    attempt: 2,
    remaining: { toolCalls: 0, tokens: 0 },
    record: async () => undefined,
    signal: new AbortController().signal,
    ...extra,
  };
}

const node = JSON.stringify(process.execPath);

describe('the shell executor', () => {
  it('runs in the project root with the step identity in its environment and records exit code and output tail', async () => {
    const root = await tempDir();
    await writeFile(
      join(root, 'show.mjs'),
      'const e = process.env; console.log(process.cwd(), e.AGENTM_STEP_ID, e.AGENTM_STEP_KEY, e.AGENTM_STEP_ATTEMPT, e.AGENTM_PLAN); for (let i = 0; i < 30; i++) console.log("line " + i);\n',
    );
    const outcome = await runShellStep(request(`- [/] show [cmd:: ${node} show.mjs]`), {
      projectRoot: root,
      commands: consentingPolicy(),
    });
    expect(outcome).toMatchObject({ status: 'done', toolCalls: 1, tool: 'shell', data: { exit_code: 0 } });
    expect(outcome.summary).toMatch(/^\$ .+ show\.mjs\nexit 0 after \d+\.\d s\n/);
    expect(outcome.summary).toContain('line 29');
    expect(outcome.summary).not.toContain('line 9\n');
    const identity = await runShellStep(
      request(
        `- [/] show [cmd:: ${node} -e "console.log(process.cwd(), process.env.AGENTM_STEP_ID, process.env.AGENTM_STEP_KEY, process.env.AGENTM_STEP_ATTEMPT, process.env.AGENTM_PLAN)"]`,
      ),
      { projectRoot: root, commands: consentingPolicy() },
    );
    expect(identity.summary.split('\n')[2]).toBe(`${root} show key-123 2 demo`);
  });

  it('a non-zero exit fails the step with the exit code', async () => {
    const outcome = await runShellStep(
      request(`- [/] boom [cmd:: ${node} -e "console.error('bad thing'); process.exit(3)"]`),
      { projectRoot: await tempDir(), commands: consentingPolicy() },
    );
    expect(outcome).toMatchObject({ status: 'failed', data: { exit_code: 3 } });
    expect(outcome.summary).toMatch(/exit 3 after .*\nbad thing$/);
  });

  it('text in the step can never reach a shell', async () => {
    const root = await tempDir();
    const outcome = await runShellStep(
      request(`- [/] quoted [cmd:: ${node} -e "console.log(process.argv.at(-1))" '$(touch pwned); touch pwned2']`),
      { projectRoot: root, commands: consentingPolicy() },
    );
    expect(outcome.status).toBe('done');
    expect(outcome.summary).toContain('$(touch pwned); touch pwned2');
    const refused = await runShellStep(request('- [/] inject [cmd:: echo hi; touch pwned3]'), {
      projectRoot: root,
      commands: consentingPolicy(),
    });
    expect(refused.status).toBe('failed');
    expect(refused.summary).toContain('shell operator ";"');
    for (const f of ['pwned', 'pwned2', 'pwned3']) expect(existsSync(join(root, f))).toBe(false);
  });

  it('kills a command that overruns its timeout', async () => {
    const outcome = await runShellStep(
      request(`- [/] sleepy [cmd:: ${node} -e "setTimeout(() => {}, 60000)"] [timeout:: 300ms]`),
      { projectRoot: await tempDir(), commands: consentingPolicy() },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toContain('timed out after 0.3 s (killed)');
  });

  it('a program that does not exist fails clearly', async () => {
    const outcome = await runShellStep(request('- [/] nope [cmd:: definitely-not-a-program-xyz --flag]'), {
      projectRoot: await tempDir(),
      commands: consentingPolicy(),
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toContain('could not start "definitely-not-a-program-xyz"');
    expect(outcome.summary).toContain('ENOENT');
  });
});

/** True while `pid` runs (a zombie awaiting its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  let stat = '';
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return process.platform !== 'linux';
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

async function expectGone(pid: number): Promise<void> {
  // A killed process is gone within milliseconds; the bound only keeps a survivor from hanging the test.
  for (let i = 0; i < 1000 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  const survived = alive(pid);
  if (survived) process.kill(pid, 'SIGKILL');
  expect(survived).toBe(false);
}

async function waitForFile(path: string): Promise<string> {
  for (;;) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8').trim();
      if (text !== '') return text;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('stopping a command', () => {
  it('a timeout ends the command’s whole process tree, not just its first process', async () => {
    const root = await tempDir();
    // sh starts `sleep` in the background (same process group) and waits: the timeout must end both.
    const outcome = await runShellStep(
      request(`- [/] tree [cmd:: sh -c 'sleep 60 & echo $! > gc.pid; wait'] [timeout:: 1500ms]`),
      { projectRoot: root, commands: consentingPolicy() },
    );
    expect(outcome.summary).toContain('timed out');
    await expectGone(Number(await waitForFile(join(root, 'gc.pid'))));
  });

  it('a stop ends the whole tree of a command that started its own children', async () => {
    const root = await tempDir();
    const grandchild = join(root, 'grandchild.mjs');
    await writeFile(
      grandchild,
      `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(join(root, 'gc.pid'))}, String(process.pid)); setInterval(() => {}, 1 << 30);\n`,
    );
    await writeFile(
      join(root, 'parent.mjs'),
      `import { spawn } from 'node:child_process'; spawn(process.execPath, [${JSON.stringify(grandchild)}], { stdio: 'ignore' }); setInterval(() => {}, 1 << 30);\n`,
    );
    const stop = new AbortController();
    const running = runShellStep(request(`- [/] tree [cmd:: ${node} parent.mjs]`, { signal: stop.signal }), {
      projectRoot: root,
      commands: consentingPolicy(),
    });
    // Stop only once the grandchild runs, however slow the machine is.
    const pid = Number(await waitForFile(join(root, 'gc.pid')));
    stop.abort();
    const outcome = await running;
    expect(outcome.status).not.toBe('done');
    await expectGone(pid);
  });
});
