import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { completion, startChatServer } from './helpers/chat-server.js';
import { tempDir } from './helpers/temp.js';

async function repo() {
  const home = await tempDir();
  const cwd = join(home, 'repo');
  await mkdir(cwd, { recursive: true });
  return { home, cwd, harness: join(cwd, '.harness') };
}

describe('agentm plan / run / trace / replay (black box)', () => {
  it('without an LLM plans a single step, and running it fails clearly naming the variables to set', async () => {
    const r = await repo();
    const planned = await runAgentm(['plan', 'Tidy the README'], { home: r.home, cwd: r.cwd });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toBe(
      `wrote ${join(r.harness, 'PLAN-tidy-the-readme.md')}\n  - [ ] Tidy the README [id:: s1] → researcher (provision)\n`,
    );
    expect(planned.stderr).toContain(
      'no chat model is configured, so the goal becomes one step for a model, and agentm run refuses it until there is one (agentm init, or AGENTM_LLM_BASE_URL',
    );
    const doc = parsePlan(await readFile(join(r.harness, 'PLAN-tidy-the-readme.md'), 'utf8'));
    expect(doc.steps.map((s) => [s.id, s.title, s.role])).toEqual([['s1', 'Tidy the README', 'researcher']]);
    expect(
      parseProgress(await readFile(join(r.harness, 'progress-tidy-the-readme.md'), 'utf8')).map((o) => o.kind),
    ).toEqual(['decision', 'decision']);

    const again = await runAgentm(['plan', 'Tidy the README'], { home: r.home, cwd: r.cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('a plan already exists at');

    // The pre-flight refuses to start a step for the model when there is no model, saying what to set…
    const refused = await runAgentm(['run', '--plan', 'tidy-the-readme', '--once'], { home: r.home, cwd: r.cwd });
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toContain(
      '  - s1 (Tidy the README): needs a chat model: no chat provider is configured: set AGENTM_LLM_BASE_URL',
    );
    // …and without it the step fails at dispatch, and the run says why and how to retry.
    const run = await runAgentm(['run', '--plan', 'tidy-the-readme', '--once', '--no-preflight'], {
      home: r.home,
      cwd: r.cwd,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('plan tidy-the-readme: failed\n');
    expect(run.stderr).toContain(
      '✗ s1 Tidy the README (attempt 0)\n    step "s1" needs a model: no chat provider is configured: set AGENTM_LLM_BASE_URL',
    );
    expect(run.stderr).toContain(
      'retry: agentm retry s1 --plan tidy-the-readme && agentm run --plan tidy-the-readme\n',
    );
    const log = parseProgress(await readFile(join(r.harness, 'progress-tidy-the-readme.md'), 'utf8'));
    expect(log.find((o) => o.kind === 'error')!.text).toContain(
      'needs a model: no chat provider is configured: set AGENTM_LLM_BASE_URL',
    );

    const trace = await runAgentm(['trace', '--plan', 'PLAN-tidy-the-readme.md', '--json'], {
      home: r.home,
      cwd: r.cwd,
    });
    expect(trace.code, trace.stderr).toBe(0);
    const json = JSON.parse(trace.stdout) as {
      status: string;
      metrics: { stepCount: number; errorCount: number };
      steps: Array<{ id: string; status: string }>;
    };
    expect([json.status, json.metrics.stepCount, json.metrics.errorCount, json.steps]).toEqual([
      'failed',
      1,
      1,
      [{ id: 's1', title: 'Tidy the README', status: 'failed', transitions: 2, observations: 2 }],
    ]);

    const replay = await runAgentm(['replay', '--plan', 'tidy-the-readme'], { home: r.home, cwd: r.cwd });
    expect([replay.code, replay.stdout]).toEqual([
      0,
      'recorded: s1\nreplayed: s1\ndeterministic: yes (the DAG fixes the dispatch order)\nreproduced: yes\n',
    ]);
  }, 60_000);

  it('plans through an OpenAI-compatible endpoint and runs an LLM step that uses a tool', async () => {
    const r = await repo();
    await writeFile(join(r.cwd, 'VERSION'), '1.2.3\n');
    const server = await startChatServer((n, body) => {
      if (body['response_format'])
        return {
          body: completion(
            JSON.stringify({
              steps: [
                {
                  key: 'read',
                  title: 'Read the version file',
                  goal: 'know the version',
                  dependsOn: [],
                  roleHint: 'researcher',
                },
              ],
            }),
          ),
        };
      const tool = (body['messages'] as Array<{ role: string }>).some((m) => m.role === 'tool');
      return {
        body: tool
          ? completion('The version is 1.2.3.')
          : completion('', [{ name: 'read_file', args: { path: 'VERSION' } }]),
      };
    });
    const env = { AGENTM_LLM_BASE_URL: server.baseUrl, AGENTM_LLM_MODEL: 'scripted', AGENTM_LLM_API_KEY: 'k' };
    const planned = await runAgentm(['plan', 'Find the version', '--name', 'ver'], { home: r.home, cwd: r.cwd, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('  - [ ] Read the version file [id:: read] → researcher (provision)');
    const run = await runAgentm(['run', '--plan', 'ver'], { home: r.home, cwd: r.cwd, env });
    expect([run.code, run.stdout], run.stderr).toEqual([0, 'plan ver: done\n']);
    const log = parseProgress(await readFile(join(r.harness, 'progress-ver.md'), 'utf8'));
    expect(log.find((o) => o.kind === 'tool_result' && o.data['tool'] === 'read_file')!.text).toBe('read_file → 1.2.3');
    expect(log.find((o) => o.kind === 'tool_result' && o.data['tool'] === 'llm')!.text).toBe(
      'step "read" completed (1 tool call(s)): The version is 1.2.3.',
    );
    expect(log.find((o) => o.kind === 'note')!.data['stop_reason']).toBe('respondToUser');
  }, 60_000);

  it('refuses bad input with exit 2 and a reason', async () => {
    const r = await repo();
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['run'], {}, /no plan at .*PLAN\.md/],
      [['run', '--plan', '../x'], {}, /unsafe plan name/],
      [['run', '--max-concurrent', '0'], {}, /--max-concurrent must be a positive whole number/],
      [['plan', 'x'], { AGENTM_LLM_BASE_URL: 'http://127.0.0.1:9/v1' }, /AGENTM_LLM_MODEL is not/],
      [['eval', '--threshold', 'speed=9'], {}, /bad --threshold "speed=9"/],
    ];
    for (const [args, env, message] of cases) {
      const result = await runAgentm(args, { home: r.home, cwd: r.cwd, env });
      expect([result.code, result.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    await mkdir(r.harness, { recursive: true });
    await writeFile(join(r.harness, 'PLAN.md'), '- [ ] a [id:: a] [after:: b]\n- [ ] b [id:: b] [after:: a]\n');
    const cyclic = await runAgentm(['run', '--once'], { home: r.home, cwd: r.cwd });
    expect([cyclic.code, cyclic.stderr]).toEqual([
      2,
      expect.stringContaining('cannot run: dependency cycle through step "a"'),
    ]);
    const nothing = await runAgentm(['trace', '--plan', 'ghost'], { home: r.home, cwd: r.cwd });
    expect(nothing.code).toBe(1);
  }, 60_000);
});

describe('agentm eval (black box)', () => {
  it('runs the six fixtures, passes the default threshold, and exits 1 naming each violated threshold', async () => {
    const home = await tempDir();
    const ok = await runAgentm(['eval'], { home });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.split('\n').filter((l) => l.startsWith('PASS'))).toHaveLength(6);
    expect(ok.stdout).toContain('passed 6/6 (pass rate 1.000), success rate 0.500, tool calls 14, tokens 535');
    const strict = await runAgentm(['eval', '--threshold', 'tool_calls=10', 'tokens=500', 'success_rate=0.9'], {
      home,
    });
    expect(strict.code).toBe(1);
    expect(strict.stderr.trim().split('\n')).toEqual([
      'agentm eval: threshold violated: success rate 0.500 below floor 0.900',
      'agentm eval: threshold violated: total tool calls 14 exceeds cap 10',
      'agentm eval: threshold violated: total tokens 535 exceeds cap 500',
    ]);
  }, 60_000);
});
