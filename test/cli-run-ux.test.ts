import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { runAgentmInPty, stripAnsi } from './helpers/pty.js';
import { tempDir } from './helpers/temp.js';

/** A repository with plan `b` in its `.harness/` (no vault: plans stay in the repo). */
async function repoWithPlan(plan: string) {
  const home = await tempDir();
  const cwd = join(home, 'repo');
  await mkdir(join(cwd, '.harness'), { recursive: true });
  const planFile = join(cwd, '.harness', 'PLAN-b.md');
  await writeFile(planFile, plan);
  return { home, cwd, planFile, progressFile: join(cwd, '.harness', 'progress-b.md') };
}

const FAILING = [
  "- [ ] Say hello [id:: hi] [cmd:: sh -c 'echo hello; echo careful >&2']",
  '- [ ] Check the build [id:: check] [after:: hi] [cmd:: sh -c \'echo compiling; echo "error: no such file main.c" >&2; exit 3\']',
  '- [ ] Ship it [id:: ship] [after:: check] [cmd:: true]',
  '',
].join('\n');

describe('agentm run says why it failed, where the user looks (issue 15)', { timeout: 60_000 }, () => {
  it('prints the failed step, its exit code and output tail, the steps left waiting, and the command to retry', async () => {
    const r = await repoWithPlan(FAILING);
    const run = await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('plan b: failed\n');
    expect(run.stderr).toContain(
      [
        '✗ check Check the build (attempt 0)',
        `    $ sh -c 'echo compiling; echo "error: no such file main.c" >&2; exit 3'`,
      ].join('\n'),
    );
    expect(run.stderr).toMatch(/\n {4}exit 3 after \d+\.\d s\n {4}compiling\n {4}error: no such file main\.c\n/);
    expect(run.stderr).toContain('not run (waiting on a failed step): ship');
    expect(run.stderr).toContain('retry: agentm retry check --plan b && agentm run --plan b\n');
  });

  it('--json gives the same on stdout: every step, each failure with its whole reason, the retry command', async () => {
    const r = await repoWithPlan(FAILING);
    const run = await runAgentm(['run', '--plan', 'b', '--yes', '--json'], { home: r.home, cwd: r.cwd });
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as {
      status: string;
      steps: Array<{ id: string; status: string }>;
      failed: Array<{ id: string; attempt: number; reason: string }>;
      retry: string;
    };
    expect(json.status).toBe('failed');
    expect(json.steps.map((s) => [s.id, s.status])).toEqual([
      ['hi', 'done'],
      ['check', 'failed'],
      ['ship', 'pending'],
    ]);
    expect(json.failed).toHaveLength(1);
    expect(json.failed[0]!.reason).toMatch(/exit 3 after .*\ncompiling\nerror: no such file main\.c$/s);
    expect(json.retry).toBe('agentm retry check --plan b && agentm run --plan b');
  });

  it('agentm retry puts the failed step back (attempt + 1, transition logged, plan reopened), and the run then finishes', async () => {
    const r = await repoWithPlan(
      '- [ ] Check the marker [id:: check] [cmd:: test -f marker]\n- [ ] After it [id:: after] [after:: check] [cmd:: true]\n',
    );
    expect((await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd })).code).toBe(1);
    expect(await readFile(r.planFile, 'utf8')).toMatch(/status: failed/);

    const notFailed = await runAgentm(['retry', 'after', '--plan', 'b'], { home: r.home, cwd: r.cwd });
    expect([notFailed.code, notFailed.stderr]).toEqual([
      1,
      "agentm: step 'after' of plan 'b' is pending, not failed; only a failed step can be retried (the next run picks it up)\n",
    ]);
    const unknown = await runAgentm(['retry', 'nope', '--plan', 'b'], { home: r.home, cwd: r.cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("plan 'b' has no step 'nope' (its steps: check, after)");
    const none = await runAgentm(['retry', '--plan', 'b'], { home: r.home, cwd: r.cwd });
    expect([none.code, none.stderr]).toEqual([
      2,
      'agentm: name the step(s) to retry: failed in plan b: check (or --all-failed)\n',
    ]);

    const retry = await runAgentm(['retry', 'check', '--plan', 'b', '--json'], { home: r.home, cwd: r.cwd });
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toEqual({
      plan: 'b',
      retried: [{ id: 'check', title: 'Check the marker', attempt: 1 }],
      reopened: true,
    });
    const text = await readFile(r.planFile, 'utf8');
    expect(text).not.toMatch(/status: failed/);
    expect(parsePlan(text).steps[0]).toMatchObject({ id: 'check', stored: 'pending', attempt: 1 });
    const log = parseProgress(await readFile(r.progressFile, 'utf8'));
    expect(log.some((o) => o.step === 'check' && o.kind === 'transition' && o.text === 'failed → ready')).toBe(true);
    expect(log.some((o) => o.step === 'plan:b' && o.text.startsWith('plan failed → open: step check retried'))).toBe(
      true,
    );

    await writeFile(join(r.cwd, 'marker'), '');
    const again = await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd });
    expect([again.code, again.stdout]).toEqual([0, 'plan b: done\n']);
  });

  it('pre-flight: refuses with every step that cannot run (exit 1), before claiming or running anything', async () => {
    const r = await repoWithPlan(
      [
        '- [ ] Make a marker [id:: first] [cmd:: touch ran-first]',
        '- [ ] Lint [id:: lint] [cmd:: no-such-linter-xyz --fix]',
        '- [ ] Build [id:: build] [cmd:: ./scripts/build.sh]',
        '- [ ] Deploy [id:: deploy] [cmd:: ./scripts/missing.sh]',
        '- [ ] Write the changelog [id:: notes]',
        '- [x] Already done [id:: old] [cmd:: no-such-tool-either]',
        '',
      ].join('\n'),
    );
    await mkdir(join(r.cwd, 'scripts'));
    await writeFile(join(r.cwd, 'scripts', 'build.sh'), '#!/bin/sh\necho built\n');
    await chmod(join(r.cwd, 'scripts', 'build.sh'), 0o644);
    const before = await readFile(r.planFile, 'utf8');
    const run = await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('plan b was not started: 4 step(s) cannot run:');
    expect(run.stderr).toContain(
      '  - lint (Lint): program "no-such-linter-xyz" is not on the PATH the command gets (install it, or name it by its path)',
    );
    expect(run.stderr).toMatch(
      / {2}- build \(Build\): \.\/scripts\/build\.sh is not executable \(chmod \+x .*build\.sh\)/,
    );
    expect(run.stderr).toMatch(/ {2}- deploy \(Deploy\): \.\/scripts\/missing\.sh does not exist/);
    expect(run.stderr).toContain('  - notes (Write the changelog): needs a chat model: no chat provider is configured');
    expect(run.stderr).not.toContain('old');
    expect(run.stderr).toContain('Nothing was claimed');
    // Nothing was claimed, nothing ran, nothing was logged.
    expect(await readFile(r.planFile, 'utf8')).toBe(before);
    expect(existsSync(r.progressFile)).toBe(false);
    expect(existsSync(join(r.cwd, 'ran-first'))).toBe(false);

    const json = await runAgentm(['run', '--plan', 'b', '--yes', '--json'], { home: r.home, cwd: r.cwd });
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { problems: Array<{ step: string }> }).problems.map((p) => p.step)).toEqual([
      'lint',
      'build',
      'deploy',
      'notes',
    ]);
  });

  it('plain (not a terminal): each output line prefixed with its step, redacted and made printable', async () => {
    const r = await repoWithPlan('- [ ] Talk [id:: talk] [cmd:: sh talk.sh]\n');
    await writeFile(
      join(r.cwd, 'talk.sh'),
      [
        'echo one',
        'echo two >&2',
        'echo "key sk-abcdefghijklmnopqrstuvwx"',
        "printf '\\033]0;pwned\\007\\033[31mred\\n'",
        "printf 'no newline'",
        '',
      ].join('\n'),
    );
    const run = await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('agentm run: claimed step talk (attempt 0)\n');
    expect(run.stderr).toContain('[talk] one\n');
    expect(run.stderr).toContain('[talk] two\n');
    expect(run.stderr).toContain('[talk] key [REDACTED-API-KEY]\n');
    expect(run.stderr).toContain('[talk] \\x1b]0;pwned\\x07\\x1b[31mred\n');
    expect(run.stderr).toContain('[talk] no newline\n');
    expect(run.stderr).not.toContain('\x1b');
    expect(run.stderr).not.toContain('sk-abcdefghijklmnopqrstuvwx');

    const quiet = await runAgentm(['run', '--plan', 'b', '--yes', '--quiet'], { home: r.home, cwd: r.cwd });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('[talk]');
  });

  it('on a terminal: a live view (steps with their elapsed time, output prefixed), colour, no escape from the command', async () => {
    const r = await repoWithPlan(
      [
        '- [ ] Talk [id:: talk] [cmd:: sh talk.sh]',
        "- [ ] Fail [id:: fail] [after:: talk] [cmd:: sh -c 'echo broken >&2; exit 2']",
        '',
      ].join('\n'),
    );
    await writeFile(join(r.cwd, 'talk.sh'), "echo hello\nsleep 0.5\nprintf '\\033]0;pwned\\007done\\n'\n");
    const run = await runAgentmInPty(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd });
    expect(run.code).toBe(1);
    const screen = stripAnsi(run.stdout);
    expect(screen).toMatch(/1 running · 0 done · \d+(\.\d)? s/);
    expect(screen).toMatch(/ {2}talk {2}\$ sh talk\.sh {2}\d+(\.\d)? s/);
    expect(screen).toContain('talk │ hello');
    expect(screen).toContain('talk │ \\x1b]0;pwned\\x07done');
    expect(screen).toMatch(/✓ talk {2}\d+(\.\d)? s/);
    expect(screen).toContain('fail │ broken');
    expect(screen).toMatch(/✗ fail {2}exit 2 after/);
    expect(screen).toContain('retry: agentm retry fail --plan b && agentm run --plan b');
    expect(screen).toContain('plan b: failed');
    // Our own colours reach the terminal; the command's OSC sequence never does.
    expect(run.stdout).toContain('\x1b[31mfailed\x1b[39m');
    expect(run.stdout).not.toContain('\x1b]0;pwned');
  });

  it('agentm trace shows a reason whole, not cut', async () => {
    const long = 'x'.repeat(150);
    const r = await repoWithPlan(`- [ ] Long [id:: long] [cmd:: sh -c 'echo ${long}; exit 1']\n`);
    expect((await runAgentm(['run', '--plan', 'b', '--yes'], { home: r.home, cwd: r.cwd })).code).toBe(1);
    const trace = await runAgentm(['trace', '--plan', 'b'], { home: r.home, cwd: r.cwd });
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain(long);
    expect(trace.stdout).toMatch(/ {4}exit 1 after \d+\.\d s\n/);
    expect(trace.stdout).not.toContain('…');
  });
});
