import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parsePlan, parseProgress } from '@agentm/core';
import { type ApprovalAsker, type ApprovalPrompt } from '@agentm/core/harness';
import type { TestingApi } from '../../src/extension';
import {
  extension,
  findItem,
  inspect,
  leaveWorld,
  makeWorld,
  ok,
  providerEndpoint,
  removeTempDirs,
  run,
  showViews,
  waitFor,
  waitForView,
  type World,
} from './helpers';

interface Shown {
  readonly severity: string;
  readonly text: string;
  readonly actions: readonly string[];
}

const stepOf = (world: World, plan: string, id: string) =>
  parsePlan(readFileSync(join(world.harness, `PLAN-${plan}.md`), 'utf8')).steps.find((s) => s.id === id)!;

suite('running plans', () => {
  let world: World;
  let testing: TestingApi;
  /** Every approval the runner asked for, and the answer the test gives (the e2e cannot click a modal). */
  const asked: ApprovalPrompt[] = [];
  let answer = true;
  /** Called while the dialog is open (what the plan looks like then). */
  let whileAsking: (() => void) | undefined;
  const asker: ApprovalAsker = async (prompt) => {
    asked.push(prompt);
    whileAsking?.();
    return answer;
  };
  /** Every notification shown, with its buttons; `click` answers the next one that offers that button. */
  const shown: Shown[] = [];
  let click: string | undefined;
  let beforeClick: (() => void) | undefined;
  const prompt = async (severity: string, text: string, actions: readonly string[]) => {
    shown.push({ severity, text, actions: [...actions] });
    if (click === undefined || !actions.includes(click)) return undefined;
    const chosen = click;
    click = undefined;
    beforeClick?.();
    beforeClick = undefined;
    return chosen;
  };
  suiteSetup(async () => {
    testing = (await extension().activate()) as TestingApi;
    assert.ok(testing?.setCommandApprovalAsker, 'the extension exposes its testing API in test mode');
    testing.setCommandApprovalAsker(asker);
    testing.setNotificationPrompt(prompt);
    world = await makeWorld();
    await showViews();
  });
  suiteTeardown(async () => {
    testing.setNotificationPrompt(undefined);
    for (const f of ['ran.txt', 'ok-marker', 'declined.txt', 'approved.txt', 'retry-marker', 'model-marker'])
      rmSync(join(world.repo, f), { force: true });
    await leaveWorld();
    removeTempDirs();
  });

  test('a project without plans shows the no-plan welcome', async () => {
    await waitForView('plan', 'the no-plan state', (v) => v.state === 'noPlan' && v.items.length === 0);
  });

  test('run plan executes a cmd:: step in the repository, and the tree shows it done', async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-build.md`,
      '---\ngoal: make a file\n---\n\n- [ ] Make the file [id:: make] [cmd:: touch ran.txt]\n',
    );
    await waitForView('plan', 'the build plan', (v) => findItem(v.items, 'Make the file') !== undefined, 5_000);
    const result = await ok<string>('agentm.runPlan', 'build');
    assert.equal(result, 'done (1/1 steps done)');
    assert.ok(existsSync(join(world.repo, 'ran.txt')), 'the command did not run in the repository');
    assert.equal(stepOf(world, 'build', 'make').stored, 'done');
    const progress = parseProgress(readFileSync(join(world.harness, 'progress-build.md'), 'utf8'));
    assert.ok(
      progress.some((o) => o.kind === 'tool_result' && o.step === 'make'),
      'no tool result in the progress log',
    );
    const view = await waitForView(
      'plan',
      'the step done',
      (v) => findItem(v.items, 'Make the file')?.icon === 'pass-filled',
      5_000,
    );
    assert.match(findItem(view.items, 'make a file')!.description ?? '', /^build · done · 1\/1 done$/);
  });

  test('a command nobody approved is asked about before any step is claimed; declined, the run does not start and nothing changes', async () => {
    asked.length = 0;
    answer = false;
    const text = '- [ ] Touch a file [id:: touch] [cmd:: touch declined.txt]\n';
    const planFile = world.file(`desk/projects/${world.slug}/_harness/PLAN-trust.md`, text);
    await waitForView('plan', 'the trust plan', (v) => findItem(v.items, 'Touch a file') !== undefined, 5_000);
    const planWhileAsking: string[] = [];
    whileAsking = () => planWhileAsking.push(readFileSync(planFile, 'utf8'));
    const outcome = await run<string>('agentm.runPlan', 'trust');
    whileAsking = undefined;
    answer = true;
    assert.deepEqual(planWhileAsking, [text], 'a step was claimed while the dialog was open');
    assert.equal(outcome.ok, false);
    assert.match(
      outcome.ok ? '' : outcome.message,
      /plan trust was not started:\n {2}step "touch": command `touch declined.txt` was declined in .*agentm approve add -- touch declined.txt/s,
    );
    assert.ok(!existsSync(join(world.repo, 'declined.txt')), 'a declined command ran');
    assert.deepEqual(
      asked.map((p) => [p.origin, p.command]),
      [['step "touch"', 'touch declined.txt']],
    );
    assert.equal(readFileSync(planFile, 'utf8'), text, 'the plan changed');
    assert.ok(!existsSync(join(world.harness, 'progress-trust.md')), 'something was logged');
    assert.deepEqual(shown.findLast((n) => n.text.includes('plan trust was not started'))?.actions, ['Open plan']);
  });

  test('approved in the dialog: the command runs, and is not asked about again in this repo', async () => {
    asked.length = 0;
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-approve.md`,
      '- [ ] Touch it [id:: one] [cmd:: touch approved.txt]\n- [ ] Touch it again [id:: two] [after:: one] [cmd:: touch approved.txt]\n',
    );
    await waitForView('plan', 'the approve plan', (v) => findItem(v.items, 'Touch it') !== undefined, 5_000);
    assert.equal(await ok<string>('agentm.runPlan', 'approve'), 'done (2/2 steps done)');
    assert.ok(existsSync(join(world.repo, 'approved.txt')), 'the approved command did not run');
    assert.deepEqual(
      asked.map((p) => p.command),
      ['touch approved.txt'],
      'asked once: the approval is remembered for the repo',
    );
    const approvals = join(
      process.env['XDG_CONFIG_HOME'] ?? join(process.env['HOME']!, '.config'),
      'agentm',
      'approvals.json',
    );
    assert.match(readFileSync(approvals, 'utf8'), /"command": "touch approved.txt"/);
  });

  test('stop cancels a running plan: the command ends, the step is released for a retry', async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-slow.md`,
      '- [ ] Wait a long time [id:: wait] [cmd:: sleep 120]\n',
    );
    await waitForView('plan', 'the slow plan', (v) => findItem(v.items, 'Wait a long time') !== undefined, 5_000);
    const running = run<string>('agentm.runPlan', 'slow');
    await waitForView(
      'plan',
      'the step spinning',
      (v) => findItem(v.items, 'Wait a long time')?.icon === 'loading~spin',
      10_000,
    );
    const during = await waitFor('the run status item', async () => {
      const i = await inspect();
      return i.runStatus.visible ? i : undefined;
    });
    assert.deepEqual(during.running, ['slow']);
    assert.equal(during.contextKeys['agentm.plan.running'], true, '"Stop plan" is not offered while the plan runs');
    assert.match(during.runStatus.text, /AgentM: slow 0\/1$/);
    assert.match(
      during.runStatus.tooltip,
      /Plan 'slow' is running: 0 of 1 steps done\. Click to show its progress log\./,
    );
    assert.equal(during.runStatus.command, 'agentm.openProgress');
    assert.deepEqual(during.runStatus.arguments, ['slow']);
    // From the palette (no argument): the plan running in this window, whichever plan is active.
    assert.equal(await ok('agentm.stopPlan'), 'slow');
    const outcome = await running;
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    assert.match(outcome.value, /^stopped \(0\/1 steps done; running steps were released for a retry\)$/);
    // Stopping did not wait for `sleep 120` to finish: the test's 30 s timeout would have ended it first.
    const step = stepOf(world, 'slow', 'wait');
    assert.notEqual(step.stored, 'running');
    assert.equal(step.attempt, 1, 'the released step is retried as the next attempt (0 → 1)');
    const after = await waitFor('the run status item to go', async () => {
      const i = await inspect();
      return i.runStatus.visible ? undefined : i;
    });
    assert.deepEqual(after.running, []);
    assert.equal(after.contextKeys['agentm.plan.running'], false, '"Stop plan" is still offered after the run');
    const nothing = await run('agentm.stopPlan');
    assert.match(nothing.ok ? '' : nothing.message, /no plan is running in this window/);
    const stopAgain = await run('agentm.stopPlan', 'slow');
    assert.match(stopAgain.ok ? '' : stopAgain.message, /plan 'slow' is not running in this window/);
  });

  test('retry failed step: failed → ready with the attempt bumped (CAS), and the next run can pass', async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-check.md`,
      '- [ ] Check the marker [id:: check] [cmd:: test -f ok-marker]\n',
    );
    await waitForView('plan', 'the check plan', (v) => findItem(v.items, 'Check the marker') !== undefined, 5_000);
    const failed = await ok<string>('agentm.runPlan', 'check');
    assert.match(failed, /^failed \(0\/1 steps done; failed: check — run "AgentM: Retry failed step"\)$/);
    // The plan and its log are written one after the other: wait for the step's failure to be in the log too.
    await waitForView(
      'plan',
      'the failed step, with its reason',
      (v) =>
        findItem(v.items, 'Check the marker')?.contextValue === 'agentm.step.failed' &&
        (findItem(v.items, 'Check the marker')?.tooltip ?? '').includes('last failure'),
      5_000,
    );
    const failedView = await inspect();
    const failedStep = findItem(failedView.views.plan.items, 'Check the marker')!;
    assert.equal(failedStep.icon, 'error');
    assert.match(
      failedStep.tooltip ?? '',
      /^check: Check the marker\nstatus: failed\nattempt 0 \(the first\)\ncommand: test -f ok-marker\n/,
    );
    assert.match(failedStep.tooltip ?? '', /last failure \(attempt 0, [^)]+\):\n\$ test -f ok-marker\nexit 1 after /);
    assert.equal(failedView.contextKeys['agentm.plan.hasFailedStep'], true, 'Retry is not offered with a failed step');
    const notice = shown.findLast((n) => n.text.includes("plan 'check' failed"))!;
    assert.equal(notice.severity, 'error');
    assert.match(notice.text, /^AgentM: plan 'check' failed at step 'check' \(Check the marker\): exit 1 after /);
    assert.deepEqual(
      notice.actions,
      ['Retry step', 'Show log'],
      'a failure not caused by a model offers no model settings',
    );

    writeFileSync(join(world.repo, 'ok-marker'), 'now it passes\n');
    assert.equal(await ok('agentm.retryStep', 'check', 'check'), 'check');
    const text = readFileSync(join(world.harness, 'PLAN-check.md'), 'utf8');
    const retried = parsePlan(text).steps[0]!;
    assert.equal(retried.attempt, 1, 'the attempt goes up (0 → 1)');
    assert.equal(retried.stored, 'pending', 'a retried step is ready again');
    assert.doesNotMatch(text, /status: failed/, 'the plan is reopened');
    const again = await run('agentm.retryStep', 'check', 'check');
    assert.match(again.ok ? '' : again.message, /step 'check' of plan 'check' is ready, not failed/);

    assert.equal(await ok<string>('agentm.runPlan', 'check'), 'done (1/1 steps done)');
    await waitForView(
      'plan',
      'the retried step done',
      (v) => findItem(v.items, 'Check the marker')?.icon === 'pass-filled',
      5_000,
    );
    const transitions = parseProgress(readFileSync(join(world.harness, 'progress-check.md'), 'utf8')).filter(
      (o) => o.step === 'check' && o.kind === 'transition',
    );
    assert.ok(
      transitions.some((o) => o.text === 'failed → ready' && o.attempt === 1),
      'the retry is logged as a transition',
    );
  });

  test('"Retry step" in the failed-run notification retries the step and runs the plan again', async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-again.md`,
      '- [ ] Need the marker [id:: need] [cmd:: test -f retry-marker]\n',
    );
    await waitForView('plan', 'the again plan', (v) => findItem(v.items, 'Need the marker') !== undefined, 5_000);
    click = 'Retry step';
    // The person fixes the cause, then clicks the button.
    beforeClick = () => writeFileSync(join(world.repo, 'retry-marker'), 'there now\n');
    assert.match(await ok<string>('agentm.runPlan', 'again'), /^failed \(0\/1 steps done; failed: need/);
    await waitFor(
      'the retried step to pass',
      async () => (stepOf(world, 'again', 'need').stored === 'done' ? true : undefined),
      20_000,
    );
    assert.equal(click, undefined, 'the button was not offered');
    assert.equal(stepOf(world, 'again', 'need').attempt, 1, 'the retry bumped the attempt');
    const transitions = parseProgress(readFileSync(join(world.harness, 'progress-again.md'), 'utf8')).filter(
      (o) => o.kind === 'transition',
    );
    assert.ok(
      transitions.some((o) => o.text === 'failed → ready' && o.attempt === 1),
      'the retry is not logged',
    );
  });

  test('"Show log" in the failed-run notification opens the progress log at its end', async () => {
    world.file(`desk/projects/${world.slug}/_harness/PLAN-log.md`, '- [ ] Fail [id:: boom] [cmd:: false]\n');
    await waitForView('plan', 'the log plan', (v) => findItem(v.items, 'Fail') !== undefined, 5_000);
    click = 'Show log';
    assert.match(await ok<string>('agentm.runPlan', 'log'), /^failed/);
    const editor = await waitFor('the progress log to open', async () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.fsPath === join(world.harness, 'progress-log.md') ? e : undefined;
    });
    assert.equal(editor.selection.active.line, editor.document.lineCount - 1, 'the log is not shown at its end');
    assert.match(editor.document.getText(), /step "boom" dispatch failed: \$ false\n\s+exit 1/);
  });

  test('a run that needs a model, with none available, is refused before anything is claimed or asked, offering "Configure model"', async () => {
    asked.length = 0;
    const text =
      '- [ ] Touch a marker [id:: touch] [cmd:: touch model-marker]\n- [ ] Summarise the notes [id:: think] [after:: touch]\n';
    const planFile = world.file(`desk/projects/${world.slug}/_harness/PLAN-model.md`, text);
    await waitForView('plan', 'the model plan', (v) => findItem(v.items, 'Summarise the notes') !== undefined, 5_000);
    click = 'Configure model';
    const outcome = await run<string>('agentm.runPlan', 'model');
    assert.equal(outcome.ok, false);
    assert.match(
      outcome.ok ? '' : outcome.message,
      /plan model was not started: 1 step\(s\) cannot run:\n {2}- think \(Summarise the notes\): needs a chat model: .*Nothing was claimed.* \(in VS Code: install a language model provider .*agentm\.providers\.baseUrl/s,
    );
    assert.deepEqual(asked, [], 'the person was asked about a command of a plan that cannot run');
    assert.equal(readFileSync(planFile, 'utf8'), text, 'a step was claimed');
    assert.ok(!existsSync(join(world.harness, 'progress-model.md')), 'something was logged');
    assert.ok(!existsSync(join(world.repo, 'model-marker')), 'a command ran');
    assert.match((await inspect()).runLog, /── not run: plan model was not started/);
    const notice = shown.findLast((n) => n.text.includes('plan model was not started'))!;
    assert.deepEqual(notice.actions, ['Configure model', 'Open plan']);
    await waitFor('the settings editor', async () =>
      vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings' ? true : undefined,
    );
  });

  test('a second run of the same plan is refused while the first runs', async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-twice.md`,
      '- [ ] Sleep briefly [id:: nap] [cmd:: sleep 3]\n',
    );
    await waitForView('plan', 'the twice plan', (v) => findItem(v.items, 'Sleep briefly') !== undefined, 5_000);
    const first = run<string>('agentm.runPlan', 'twice');
    await waitFor('the first run', async () => ((await inspect()).running.includes('twice') ? true : undefined));
    const second = await run('agentm.runPlan', 'twice');
    assert.match(second.ok ? '' : second.message, /plan 'twice' is already running in this window/);
    const done = await first;
    assert.ok(done.ok && done.value.startsWith('done'), JSON.stringify(done));
  });

  test('a step without cmd:: runs through the chat endpoint of agentm.providers.*, with the key from secret storage', async () => {
    const seen: { headers: IncomingHttpHeaders; body: { model?: string; messages?: unknown[] } }[] = [];
    const server = await providerEndpoint(({ headers, body }) => {
      seen.push({ headers, body: body as (typeof seen)[number]['body'] });
      return {
        status: 200,
        json: {
          choices: [
            { message: { role: 'assistant', content: 'The notes say: debounce the watcher.' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 },
        },
      };
    });
    const config = vscode.workspace.getConfiguration('agentm');
    try {
      await config.update('providers.baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update('providers.chatModel', 'itest-model', vscode.ConfigurationTarget.Global);
      await ok('agentm.setApiKey', 'sk-itest-chat');
      world.file(
        `desk/projects/${world.slug}/_harness/PLAN-ask.md`,
        '- [ ] Summarise what the notes say about watchers [id:: ask]\n',
      );
      await waitForView(
        'plan',
        'the ask plan',
        (v) => findItem(v.items, 'Summarise what the notes say about watchers') !== undefined,
        5_000,
      );
      assert.equal(await ok<string>('agentm.runPlan', 'ask'), 'done (1/1 steps done)');
      assert.ok(seen.length >= 1, 'the endpoint was never called');
      assert.equal(seen[0]!.headers.authorization, 'Bearer sk-itest-chat');
      assert.equal(seen[0]!.body.model, 'itest-model');
      const log = readFileSync(join(world.harness, 'progress-ask.md'), 'utf8');
      assert.ok(log.includes('The notes say: debounce the watcher.'), 'the answer is not in the progress log');
    } finally {
      await config.update('providers.baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('providers.chatModel', undefined, vscode.ConfigurationTarget.Global);
      await ok('agentm.clearApiKey');
      server.close();
    }
  });
});
