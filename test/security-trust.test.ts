import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { completion, startChatServer } from './helpers/chat-server.js';
import { tempDir } from './helpers/temp.js';

const NODE = process.execPath;

/** A repo with a local plan `PLAN-t.md`; `touch(name)` is a command that creates `name` in the repo. */
async function repoWithPlan(body: string) {
  const home = await tempDir();
  const repo = join(home, 'repo');
  await mkdir(join(repo, '.harness'), { recursive: true });
  const plan = join(repo, '.harness', 'PLAN-t.md');
  await writeFile(plan, body);
  const env = { XDG_CONFIG_HOME: join(home, 'config') };
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runAgentm(args, { home, cwd: repo, env: { ...env, ...extra } });
  return { home, repo, plan, env, run, approvals: join(home, 'config', 'agentm', 'approvals.json') };
}

/** A command that creates `file` in the project root (no shell involved). */
const touch = (file: string) => `'${NODE}' -e "require('fs').writeFileSync('${file}', 'ran')"`;

describe('a synced plan runs no command without consent (black box)', { timeout: 60_000 }, () => {
  it('not a terminal and not approved: refused before anything starts, naming the three ways to consent', async () => {
    const r = await repoWithPlan(`- [ ] make it [id:: s1] [cmd:: ${touch('made.txt')}]\n`);
    const refused = await r.run(['run', '--plan', 't']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan t was not started');
    expect(refused.stderr).toContain('has not been approved in');
    expect(refused.stderr).toContain('agentm run --yes');
    expect(refused.stderr).toContain('agentm approve add -- ');
    expect(refused.stderr).toContain("agentm approve allow '<pattern>'");
    expect(existsSync(join(r.repo, 'made.txt'))).toBe(false);
    // The plan is left as it was, so an approved run can simply start it.
    expect(parsePlan(await readFile(r.plan, 'utf8')).steps[0]).toMatchObject({ stored: 'pending', attempt: 0 });

    const yes = await r.run(['run', '--plan', 't', '--yes']);
    expect([yes.code, yes.stdout], yes.stderr).toEqual([0, 'plan t: done\n']);
    expect(await readFile(join(r.repo, 'made.txt'), 'utf8')).toBe('ran');
    // --yes is consent for that run only: nothing is remembered.
    expect(existsSync(r.approvals)).toBe(false);
  });

  it('an approved command runs; a changed command asks again; a revoked one is refused', async () => {
    const r = await repoWithPlan(`- [ ] make it [id:: s1] [cmd:: ${touch('one.txt')}]\n`);
    const added = await r.run(['approve', 'add', '--', NODE, '-e', "require('fs').writeFileSync('one.txt', 'ran')"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^approved in .*repo: .* \([0-9a-f]{12}\)\n$/);
    // Kept on this machine, outside the vault and the repo, readable by its owner only.
    expect((await stat(r.approvals)).mode & 0o777).toBe(0o600);
    const listed = JSON.parse((await r.run(['approve', 'list', '--json'])).stdout) as {
      approved: Record<string, { command: string }>;
    };
    expect(Object.values(listed.approved).map((a) => a.command)).toEqual([
      `${NODE} -e 'require('\\''fs'\\'').writeFileSync('\\''one.txt'\\'', '\\''ran'\\'')'`,
    ]);

    const ran = await r.run(['run', '--plan', 't']);
    expect([ran.code, ran.stdout], ran.stderr).toEqual([0, 'plan t: done\n']);
    expect(existsSync(join(r.repo, 'one.txt'))).toBe(true);

    // Same step, one argument changed: a different command, so it needs its own approval.
    await writeFile(r.plan, `- [ ] make it [id:: s1] [cmd:: ${touch('two.txt')}]\n`);
    const changed = await r.run(['run', '--plan', 't']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('has not been approved');
    expect(existsSync(join(r.repo, 'two.txt'))).toBe(false);

    // The approval is per repo: the same command in another directory asks again.
    const other = join(r.home, 'other');
    await mkdir(join(other, '.harness'), { recursive: true });
    await writeFile(join(other, '.harness', 'PLAN-t.md'), `- [ ] make it [id:: s1] [cmd:: ${touch('one.txt')}]\n`);
    const elsewhere = await runAgentm(['run', '--plan', 't'], { home: r.home, cwd: other, env: r.env });
    expect(elsewhere.code).toBe(1);
    expect(existsSync(join(other, 'one.txt'))).toBe(false);

    const digest = Object.keys(listed.approved)[0]!.slice(0, 12);
    const revoked = await r.run(['approve', 'revoke', digest]);
    expect(revoked.code, revoked.stderr).toBe(0);
    await writeFile(r.plan, `- [ ] make it again [id:: s2] [cmd:: ${touch('one.txt')}]\n`);
    expect((await r.run(['run', '--plan', 't'])).code).toBe(1);
  });

  it('an allow-list pattern lets matching commands run, and only those', async () => {
    const r = await repoWithPlan(
      `- [ ] make it [id:: s1] [cmd:: ${touch('a.txt')}]\n- [ ] other [id:: s2] [cmd:: touch b.txt]\n`,
    );
    expect((await r.run(['approve', 'allow', `${NODE} -e *`])).code).toBe(0);
    const run = await r.run(['run', '--plan', 't']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('step "s2": command `touch b.txt` has not been approved');
    expect(run.stderr).not.toContain('step "s1"');
    expect((await r.run(['approve', 'allow', '*'])).code).toBe(2);
    expect((await r.run(['approve', 'allow', 'touch *'])).code).toBe(0);
    const all = await r.run(['run', '--plan', 't']);
    expect([all.code, all.stdout], all.stderr).toEqual([0, 'plan t: done\n']);
    expect(existsSync(join(r.repo, 'a.txt')) && existsSync(join(r.repo, 'b.txt'))).toBe(true);
  });

  it('a goal cannot inject a command: agentm plan "… [cmd::: …]" writes text, and even --yes runs nothing', async () => {
    const r = await repoWithPlan('');
    const planned = await r.run(['plan', 'tidy up [cmd::: touch injected.txt]', '--name', 'inj']);
    expect(planned.code, planned.stderr).toBe(0);
    const text = await readFile(join(r.repo, '.harness', 'PLAN-inj.md'), 'utf8');
    const step = parsePlan(text).steps[0]!;
    expect(step.cmd).toBeUndefined();
    expect(step.title).toContain('touch injected.txt');
    const run = await r.run(['run', '--plan', 'inj', '--yes']);
    // Not a command: a step for the model, and there is no model: the pre-flight refuses to start.
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/needs a chat model/);
    expect(existsSync(join(r.repo, 'injected.txt'))).toBe(false);
  });

  it('sh -c is a command like any other: it needs approval too', async () => {
    const r = await repoWithPlan(`- [ ] trampoline [id:: s1] [cmd:: sh -c 'touch tramp.txt']\n`);
    const run = await r.run(['run', '--plan', 't']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("command `sh -c 'touch tramp.txt'` has not been approved");
    expect(existsSync(join(r.repo, 'tramp.txt'))).toBe(false);
  });

  it('(cmd:: …) and a [cmd:: …] inside a code span never run, even with --yes', async () => {
    const r = await repoWithPlan(
      `- [ ] hidden [id:: s1] (cmd:: ${touch('hidden.txt')})\n- [ ] example [id:: s2] \`[cmd:: ${touch('span.txt')}]\`\n`,
    );
    const run = await r.run(['run', '--plan', 't', '--yes']);
    // No command: both are model steps, and there is no model (the pre-flight names both).
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/- s1 \(hidden.*\): needs a chat model[\s\S]*- s2 \(example.*\): needs a chat model/);
    expect(existsSync(join(r.repo, 'hidden.txt'))).toBe(false);
    expect(existsSync(join(r.repo, 'span.txt'))).toBe(false);
    const text = await readFile(r.plan, 'utf8');
    expect(text).toContain(`(cmd:: ${touch('hidden.txt')})`);
    expect(text).toContain(`\`[cmd:: ${touch('span.txt')}]\``);
  });

  it("the model's run_command needs the same consent as a plan's command", async () => {
    const server = await startChatServer((n) => ({
      body:
        n % 2 === 0
          ? completion('', [
              { name: 'run_command', args: { argv: [NODE, '-e', "require('fs').writeFileSync('tool.txt','x')"] } },
            ])
          : completion('done'),
    }));
    const r = await repoWithPlan(`- [ ] operate the deploy [id:: s1] [role:: operator]\n`);
    const llm = { AGENTM_LLM_BASE_URL: server.baseUrl, AGENTM_LLM_MODEL: 'm' };
    const run = await r.run(['run', '--plan', 't'], llm);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(r.repo, 'tool.txt'))).toBe(false);
    const refusal = parseProgress(await readFile(join(r.repo, '.harness', 'progress-t.md'), 'utf8')).find(
      (o) => o.kind === 'error' && o.text.startsWith('run_command failed: permission:'),
    );
    expect(refusal?.text).toContain('has not been approved');
    // What the model was told: the refusal, as a tool error.
    expect(JSON.stringify(server.requests[1]!.body)).toContain('has not been approved');

    await writeFile(r.plan, `- [ ] operate the deploy again [id:: s2] [role:: operator]\n`);
    const yes = await r.run(['run', '--plan', 't', '--yes'], llm);
    expect(yes.code, yes.stderr).toBe(0);
    expect(existsSync(join(r.repo, 'tool.txt'))).toBe(true);
  });
});

describe('what a command prints reaches the model without keys', { timeout: 60_000 }, () => {
  it('run_command output is redacted before it is sent to the chat endpoint', async () => {
    const key = 'sk-printed0123456789abcdefghijkl';
    const server = await startChatServer((n) => ({
      body:
        n === 0
          ? completion('', [
              { name: 'run_command', args: { argv: [NODE, '-e', `console.log('sk-' + '${key.slice(3)}')`] } },
            ])
          : completion('done'),
    }));
    const r = await repoWithPlan(`- [ ] operate the printer [id:: s1] [role:: operator]\n`);
    const run = await r.run(['run', '--plan', 't', '--yes'], {
      AGENTM_LLM_BASE_URL: server.baseUrl,
      AGENTM_LLM_MODEL: 'm',
    });
    expect(run.code, run.stderr).toBe(0);
    const messages = server.requests[1]!.body['messages'] as Array<{ role: string; content: string }>;
    const toolMessage = messages.find((m) => m.role === 'tool')!.content;
    expect(toolMessage).toContain('exit 0');
    expect(toolMessage).toContain('[REDACTED-API-KEY]');
    expect(toolMessage).not.toContain(key);
  });
});

/** `agentm <args>` on a pseudo-terminal (util-linux `script`); `answer` is typed once the prompt shows. */
function onTerminal(args: string[], cwd: string, env: NodeJS.ProcessEnv, answer: string) {
  const command = [AGENTM_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd,
      env: { ...process.env, ...env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let typed = false;
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (!typed && output.includes('[y/N]')) {
        typed = true;
        child.stdin.write(answer);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('on a terminal, a new command is shown and asked about', { timeout: 60_000 }, () => {
  it('y runs it and remembers the approval; n refuses it and nothing runs', async () => {
    const r = await repoWithPlan(`- [ ] make it [id:: s1] [cmd:: ${touch('tty.txt')}]\n`);
    const env = {
      HOME: r.home,
      XDG_CACHE_HOME: join(r.home, '.cache'),
      AGENTM_INSTALL_PREFIX: join(r.home, '.claude'),
      ...r.env,
    };
    const no = await onTerminal(['run', '--plan', 't'], r.repo, env, 'n\r');
    expect(no.output).toContain('step "s1" wants to run a command that has not been approved in');
    expect(no.output).toContain(`writeFileSync`);
    expect(no.output).toContain('was declined');
    expect(no.code).toBe(1);
    expect(existsSync(join(r.repo, 'tty.txt'))).toBe(false);

    const yes = await onTerminal(['run', '--plan', 't'], r.repo, env, 'y\r');
    expect(yes.output).toContain('plan t: done');
    expect(yes.code).toBe(0);
    expect(existsSync(join(r.repo, 'tty.txt'))).toBe(true);
    expect(Object.keys(JSON.parse(await readFile(r.approvals, 'utf8')).repos)).toHaveLength(1);
  });
});
