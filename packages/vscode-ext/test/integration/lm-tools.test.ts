import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { appendObservations, makeObservation } from '@agentm/core/harness';
import { parsePlan, parseProgress } from '@agentm/core';
import type { TestingApi } from '../../src/extension';
import {
  extension,
  leaveWorld,
  makeWorld,
  removeTempDirs,
  showViews,
  toolText,
  waitFor,
  withMcpServer,
  type World,
} from './helpers';

const TOOLS = ['agentm_recall', 'agentm_save_memory', 'agentm_plan_status', 'agentm_update_step'];

const NOTE =
  '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [watcher]\n---\n\n# Debounce the file watcher\n\nWatchers fire twice on rename; debounce them by 150 ms.\n';

const PLAN = `---
goal: ship the tools
---

- [x] Write the schema [id:: schema]
- [ ] Register the tools [id:: register] [after:: schema] [cmd:: npm run build]
- [ ] Document them [id:: docs] [after:: register]
- [!] Try the old way [id:: old] [cmd:: make legacy]
`;

/** What the log holds after the `old` step failed (as the harness records a failed command). */
const PROGRESS = appendObservations('', [
  makeObservation({
    kind: 'error',
    step: 'old',
    attempt: 0,
    actor: '1@host',
    time: '2026-11-26T08:00:00.000Z',
    text: 'step "old" dispatch failed: $ make legacy\nexit 2 after 0.1 s\nmake: *** No rule to make target \'legacy\'.',
  }),
]);

/** The text a tool answered with. */
function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

async function invoke(name: string, input: object): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
}

async function refusal(name: string, input: object): Promise<string> {
  try {
    await invoke(name, input);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} accepted ${JSON.stringify(input)}`);
}

suite('language model tools and the MCP server definition', () => {
  let world: World;
  let testing: TestingApi;
  suiteSetup(async () => {
    testing = (await extension().activate()) as TestingApi;
    world = await makeWorld({});
    world.file(`desk/projects/${world.slug}/fix/flaky-watcher.md`, NOTE);
    world.file(`desk/projects/${world.slug}/_harness/PLAN.md`, PLAN);
    world.file(`desk/projects/${world.slug}/_harness/progress.md`, PROGRESS);
    await showViews();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveWorld();
    removeTempDirs();
  });

  test('vscode.lm.tools lists the four AgentM tools, each with a description for a model and an input schema', () => {
    const listed = vscode.lm.tools.filter((t) => t.name.startsWith('agentm_'));
    assert.deepEqual(listed.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const tool of listed) {
      assert.ok(tool.description.length > 200, `${tool.name}: a description a model can act on`);
      assert.equal((tool.inputSchema as { type?: string }).type, 'object', tool.name);
      assert.ok(tool.tags.includes('agentm'), tool.name);
    }
  });

  test('recall through vscode.lm.invokeTool finds the project note, best first, with its file', async () => {
    const text = await invoke('agentm_recall', { query: 'watcher rename debounce' });
    assert.match(
      text,
      new RegExp(`^1 memory for "watcher rename debounce" \\(project '${world.slug}' and global memories`),
    );
    assert.match(text, /1\. Debounce the file watcher — fix, score \d\.\d\d, updated 2026-02-01/);
    assert.ok(text.includes(join(world.vault, 'desk', 'projects', world.slug, 'fix', 'flaky-watcher.md')), text);
    const none = await invoke('agentm_recall', { query: 'kubernetes helm chart', kinds: ['idea'] });
    assert.match(
      none,
      /^No memories match "kubernetes helm chart" in project '.*' and global memories\. Try scope "all"/,
    );
  });

  // The bound every front end answers within (docs/memory.md): a note another program created is in the
  // next answer. The watcher reports it ~150 ms later; the tool is asked at once.
  test('a note another program wrote a moment ago is in the next recall, before any watcher reports it', async () => {
    world.file(
      `desk/projects/${world.slug}/reference/ferry-timetable.md`,
      '---\ntype: reference\nstatus: active\n---\n\n# Ferry timetable\n\nThe quokka ferry leaves the zeppelin pier at nine.\n',
    );
    const text = await invoke('agentm_recall', { query: 'quokka zeppelin ferry' });
    assert.match(text, /^1 memory for "quokka zeppelin ferry"/);
    assert.match(text, /1\. Ferry timetable — reference/);
  });

  test('save asks the person first: the confirmation names the kind, the name, where it goes and the body', async () => {
    const save = testing.tools.find((t) => t.name === 'agentm_save_memory')!;
    const input = {
      kind: 'convention',
      slug: 'tools-confirm',
      body: '# Confirm saves\n\nA tool that writes asks first.',
      tags: ['tools'],
    };
    const prepared = await save.prepareInvocation!({ input } as never, new vscode.CancellationTokenSource().token);
    assert.equal(prepared?.confirmationMessages?.title, "Save memory 'tools-confirm'?");
    const message = prepared!.confirmationMessages!.message as vscode.MarkdownString;
    assert.ok(
      message.value.includes(
        `Save a **convention** memory named \`tools-confirm\` · tags \`tools\` to \`desk/projects/${world.slug}/convention/tools-confirm.md\``,
      ),
      message.value,
    );
    assert.ok(message.value.includes('> # Confirm saves'), message.value);
    assert.equal(
      existsSync(join(world.vault, 'desk', 'projects', world.slug, 'convention', 'tools-confirm.md')),
      false,
      'preparing wrote the note',
    );
  });

  test('save through vscode.lm.invokeTool writes the note, and recall then finds it', async () => {
    const text = await invoke('agentm_save_memory', {
      kind: 'convention',
      slug: 'tools-ask-first',
      body: '# Tools that write ask first\n\nEvery AgentM tool that changes the vault shows a confirmation.',
      tags: ['tools', 'trust'],
    });
    const file = join(world.vault, 'desk', 'projects', world.slug, 'convention', 'tools-ask-first.md');
    assert.equal(
      text,
      `Saved the convention memory 'tools-ask-first' in project '${world.slug}' at ${file}. It is indexed: agentm_recall finds it.`,
    );
    const note = readFileSync(file, 'utf8');
    assert.match(note, /^---\ntype: convention\nstatus: active\n/);
    assert.match(note, /^tags: \[tools, trust\]$/m);
    const found = await waitFor('recall to find the saved note', async () => {
      const answer = await invoke('agentm_recall', { query: 'confirmation tools vault' });
      return answer.includes('Tools that write ask first') ? answer : undefined;
    });
    assert.ok(found.includes(file), found);
    const again = await refusal('agentm_save_memory', { kind: 'convention', slug: 'tools-ask-first', body: 'x' });
    assert.match(again, /already exists .*saving never overwrites/);
  });

  test('bad input is refused by the schema before anything runs, naming the fix', async () => {
    const recall = await refusal('agentm_recall', { query: '', limit: 0, extra: true });
    assert.match(recall, /^invalid input for agentm_recall: /);
    assert.match(recall, /query: String is too short/);
    assert.match(recall, /limit: 0 is less than 1/);
    assert.match(recall, /input has a property the tool does not take: "extra"/);
    assert.match(recall, /Call agentm_recall again with input matching its schema\.$/);
    const save = await refusal('agentm_save_memory', { kind: 'fix', slug: 'Bad Slug', body: 'text' });
    assert.match(save, /slug: .*does not match pattern/i);
    assert.equal(existsSync(join(world.vault, 'desk', 'projects', world.slug, 'fix', 'Bad Slug.md')), false);
    const unknownKind = await refusal('agentm_save_memory', { kind: 'lunch', slug: 'fine', body: 'text' });
    assert.match(
      unknownKind,
      /agentm_save_memory cannot save: .*lunch.*preference, convention, reference, workflow, fix, idea/,
    );
    const step = await refusal('agentm_update_step', { step: 'docs', action: 'failed' });
    assert.match(step, /action "failed" needs "text" \(the reason it failed\)/);
  });

  test('plan status reads the active plan: steps with status, dependencies, commands and the last failure', async () => {
    const text = await invoke('agentm_plan_status', {});
    assert.match(
      text,
      new RegExp(`^Project '${world.slug}'\\.\\nPlan 'PLAN' — goal: ship the tools\\nstatus: active · open · 1/4 done`),
    );
    assert.match(text, /- schema · done · attempt 0 · the model \(its title is the goal\): Write the schema/);
    assert.match(text, /- register · ready · attempt 0 · after schema · command `npm run build`: Register the tools/);
    assert.match(text, /- docs · pending · attempt 0 · after register · /);
    assert.match(
      text,
      /- old · failed · attempt 0 · command `make legacy`: Try the old way\n {2}last failure \(attempt 0\): \$ make legacy\n {4}exit 2 after 0\.1 s/,
    );
    const missing = await refusal('agentm_plan_status', { plan: 'nope' });
    assert.match(missing, /has no plan 'nope'; its plans are: PLAN/);
  });

  test("step update moves a step through core's state machine and logs it; illegal moves are refused", async () => {
    const planFile = join(world.harness, 'PLAN.md');
    const step = (id: string) => parsePlan(readFileSync(planFile, 'utf8')).steps.find((s) => s.id === id)!;
    assert.equal(
      await invoke('agentm_update_step', { step: 'register', action: 'start' }),
      "Step 'register' of plan 'PLAN' went ready → running.",
    );
    assert.equal(step('register').stored, 'running');
    assert.equal(step('register').agent, 'vscode-agent');
    await invoke('agentm_update_step', { step: 'register', action: 'note', text: 'halfway there' });
    assert.equal(
      await invoke('agentm_update_step', { step: 'register', action: 'done', text: 'built in 3 s' }),
      "Step 'register' of plan 'PLAN' went running → done.",
    );
    const failed = await invoke('agentm_update_step', { step: 'docs', action: 'failed', text: 'the API is not final' });
    assert.match(failed, /^Step 'docs' of plan 'PLAN' went ready → failed\. The plan is now failed\.$/);
    const log = parseProgress(readFileSync(join(world.harness, 'progress.md'), 'utf8'));
    assert.ok(log.some((o) => o.kind === 'note' && o.step === 'register' && o.text === 'halfway there'));
    // The workspace's updateStep, as every front end's: a result is a note (never a tool result), a failure its reason.
    assert.ok(log.some((o) => o.kind === 'note' && o.step === 'register' && o.text === 'built in 3 s'));
    assert.ok(!log.some((o) => o.kind === 'tool_result'), 'a step update logged a tool result');
    assert.ok(log.some((o) => o.kind === 'error' && o.step === 'docs' && o.text === 'the API is not final'));
    assert.ok(
      log.some(
        (o) =>
          o.kind === 'transition' && o.step === 'docs' && o.text === 'running → failed' && o.actor === 'vscode-agent',
      ),
    );
    const final = await refusal('agentm_update_step', { step: 'register', action: 'start' });
    assert.match(final, /invalid transition "done" -> "running"/);
    const unknown = await refusal('agentm_update_step', { step: 'nope', action: 'note', text: 'x' });
    assert.match(unknown, /plan step "nope" not found: no checklist item has this id/);
    const again = await refusal('agentm_update_step', { step: 'register', action: 'done' });
    assert.match(again, /it is already done/);
  });

  test("the MCP server definition provider returns a stdio definition of `agentm mcp` over this window's vault and folder", async () => {
    assert.ok(
      (extension().packageJSON.contributes.mcpServerDefinitionProviders as { id: string }[]).some(
        (p) => p.id === 'agentm.mcp',
      ),
    );
    const definitions = testing.mcpProvider.provideMcpServerDefinitions();
    assert.equal(definitions.length, 1);
    const definition = definitions[0] as vscode.McpStdioServerDefinition;
    assert.ok(definition instanceof vscode.McpStdioServerDefinition, 'not a stdio definition');
    assert.equal(definition.label, 'AgentM');
    assert.equal(definition.command, process.execPath, "the bundled CLI runs on the editor's Node");
    assert.deepEqual(definition.args, [join(extension().extensionPath, 'dist', 'agentm.mjs'), 'mcp']);
    assert.equal(definition.cwd?.fsPath, world.repo);
    // No override: the server reads the shared .agentm-config.json, as VS Code does (the same store below).
    assert.equal(definition.env['MEMORY_VAULT_PATH'], undefined);
    assert.equal(definition.version, extension().packageJSON.version);
    assert.equal(testing.mcpProvider.resolveMcpServerDefinition(definition), definition);

    // The same command, cwd and environment run the bundled CLI over the same store and project.
    const statePath = spawnSync(definition.command, [...definition.args.slice(0, -1), 'state-path', 'plan'], {
      cwd: definition.cwd!.fsPath,
      env: { ...process.env, ...(definition.env as Record<string, string>) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(statePath.status, 0, statePath.stderr);
    assert.equal(statePath.stdout.trim(), join(world.harness, 'PLAN.md'));

    // And an MCP client (the SDK's own, as VS Code's agents speak it) starts it from the definition,
    // lists AgentM's tools and recalls a note of this window's vault through it.
    world.file('memory/fix/debounce-watcher.md', NOTE);
    await withMcpServer(definition, async (client) => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of ['recall', 'save', 'read_plan', 'update_step'])
        assert.ok(names.includes(name), names.join(', '));
      const answer = await client.callTool({ name: 'recall', arguments: { query: 'debounce rename' } });
      const text = toolText(answer);
      assert.equal(answer.isError, undefined, text);
      assert.match(text, /Debounce the file watcher/);
    });
  });

  test('agentm.cli.path re-publishes the definition; a missing CLI is refused naming the setting', async () => {
    const config = vscode.workspace.getConfiguration('agentm');
    let changed = 0;
    const listening = testing.mcpProvider.onDidChangeMcpServerDefinitions(() => changed++);
    try {
      await config.update('cli.path', '/no/such/agentm', vscode.ConfigurationTarget.Global);
      await waitFor('the definitions to change', async () => (changed > 0 ? true : undefined));
      const [definition] = testing.mcpProvider.provideMcpServerDefinitions();
      assert.equal(definition!.command, '/no/such/agentm');
      assert.deepEqual(definition!.args, ['mcp']);
      assert.throws(
        () => testing.mcpProvider.resolveMcpServerDefinition(definition!),
        /agentm\.cli\.path names \/no\/such\/agentm, which does not exist; set it to the agentm executable/,
      );
    } finally {
      listening.dispose();
      await config.update('cli.path', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
