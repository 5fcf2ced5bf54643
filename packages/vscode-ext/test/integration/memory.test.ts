import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { appendObservations, makeObservation } from '@agentm/core/harness';
import { buildNote } from '@agentm/core';
import { BOOKKEEPING_TEXT, MIXED_PROGRESS_LOG } from '@agentm/core/testing';
import type { TestingApi } from '../../src/extension';
import {
  extension,
  findItem,
  inspect,
  leaveWorld,
  makeWorld,
  ok,
  openRecallPick,
  providerEndpoint,
  removeTempDirs,
  run,
  showViews,
  tempDir,
  waitFor,
  waitForView,
  type ItemSnapshot,
  type World,
} from './helpers';

const SELECTION = 'Prefer the standard library for JSON.\r\nA dependency is a liability.';
const DATE = /^(created|updated): \d{4}-\d{2}-\d{2}$/gm;

/** Opens a document holding `text`, selects all of it (what a user does before saving) and returns the selected text. */
async function select(text: string, file = join(tempDir('agentm-itest-doc-'), 'notes.md')): Promise<string> {
  // A file on disk, not an untitled buffer: closing it later asks nothing.
  writeFileSync(file, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(doc.positionAt(0), doc.positionAt(doc.getText().length));
  return doc.getText(editor.selection);
}

/** Runs the quick input's accept (Enter) until the save prompt moves past `step`. */
async function acceptPrompt(step: number): Promise<void> {
  await waitFor(`the save prompt ${step}`, async () => ((await inspect()).savePrompt.step === step ? true : undefined));
  for (let tries = 0; (await inspect()).savePrompt.step === step; tries++) {
    if (tries > 20) throw new Error(`the save prompt ${step} did not take Enter`);
    await new Promise((r) => setTimeout(r, 250)); // the widget shows after the step is set
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 250));
  }
}

suite('memory: save selection, recall, maintenance', () => {
  let world: World;
  let saved: string;
  suiteSetup(async () => {
    await extension().activate();
    world = await makeWorld();
    await showViews();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveWorld();
    removeTempDirs();
  });

  test('an empty project shows the memory-empty welcome', async () => {
    await waitForView('recall', 'memory empty', (v) => v.state === 'memoryEmpty');
  });

  test("save selection writes a note in agentm's format into the project's folder, and opens it", async () => {
    // A file outside the workspace and any repository: no path a reader on another machine could use.
    const file = join(tempDir('agentm-itest-doc-'), 'notes.md');
    const body = await select(SELECTION, file);
    const uri = await ok<string>('agentm.saveSelection', {
      kind: 'decision',
      slug: 'prefer-stdlib',
      tags: 'json, deps',
    });
    const group = `desk/projects/${world.slug}`;
    saved = join(world.vault, group, 'convention', 'prefer-stdlib.md');
    assert.equal(vscode.Uri.parse(uri).fsPath, saved, 'a decision files as convention in the project folder');
    const expected = buildNote(
      { kind: 'decision', slug: 'prefer-stdlib', body, group, tags: ['json', 'deps'] },
      { now: new Date() },
    ).content;
    const written = readFileSync(saved, 'utf8');
    assert.equal(
      written.replace(DATE, '$1: D'),
      expected.replace(DATE, '$1: D'),
      "not byte-identical to core's serializer",
    );
    assert.match(written, /^type: convention$/m);
    assert.ok(written.endsWith(`${body}\n`), 'the selected prose (and its source) is not the body, byte for byte');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, saved, 'the saved note is not opened');
  });

  test('selected code is saved with a title, fenced with its language, and where it came from in the workspace', async () => {
    const file = join(world.repo, 'watcher.ts');
    writeFileSync(file, 'import x from "y";\nconst delay = 150;\nwatch(debounce(onChange, delay));\nexport {};\n');
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 0, 3, 0); // lines 2–3, ending at the start of line 4
      const uri = await ok<string>('agentm.saveSelection', { kind: 'fix', slug: 'debounce-delay', tags: '' });
      const written = readFileSync(vscode.Uri.parse(uri).fsPath, 'utf8');
      assert.equal(doc.languageId, 'typescript');
      assert.ok(
        written.endsWith(
          '\n# Debounce delay\n\n```typescript\nconst delay = 150;\nwatch(debounce(onChange, delay));\n```\n\n' +
            'From `watcher.ts`, lines 2–3.\n',
        ),
        written,
      );
      assert.doesNotMatch(written, /:\/\/|\/tmp\//, 'an absolute path or an editor link reached the synced vault');
      // Recall shows the note by its title, not by its fence.
      const { picked } = await openRecallPick('debounce delay', 'Debounce delay');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await picked;
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(file, { force: true });
    }
  });

  test('code from a git repository says its repository path and commit', async () => {
    const repo = join(world.repo, 'lib-repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    const file = join(repo, 'src', 'retry.ts');
    writeFileSync(file, 'export const retries = 3;\n');
    const git = (...args: string[]) =>
      spawnSync('git', args, {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      }).stdout.trim();
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
    const head = git('rev-parse', 'HEAD');
    assert.match(head, /^[0-9a-f]{40}$/);
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 0, 0, 25);
      const uri = await ok<string>('agentm.saveSelection', { kind: 'fix', slug: 'retry-count', tags: '' });
      const written = readFileSync(vscode.Uri.parse(uri).fsPath, 'utf8');
      assert.ok(
        written.endsWith(
          `\n# Retry count\n\n\`\`\`typescript\nexport const retries = 3;\n\`\`\`\n\nFrom \`src/retry.ts\`, line 1, at commit ${head.slice(0, 12)}.\n`,
        ),
        written,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("save selection as global memory files it with every project's notes, and the prompts say so first", async () => {
    await select('Always run the formatter before committing.\n', join(tempDir('agentm-itest-doc-'), 'g.md'));
    const saving = run<string>('agentm.saveSelectionGlobal', { kind: 'preference', tags: '' });
    const prompt = await waitFor('the slug prompt', async () => {
      const state = (await inspect()).savePrompt;
      return state.step === 2 ? state : undefined;
    });
    assert.equal(prompt.where, 'as a global note');
    await acceptPrompt(2);
    const uri = await saving;
    assert.ok(uri.ok, uri.ok ? '' : uri.message);
    assert.equal(
      vscode.Uri.parse(uri.value).fsPath,
      join(world.vault, 'memory', 'preference', 'always-run-the-formatter-before-committing.md'),
    );
    const notice = (await inspect()).messages.findLast((m) => m.text.includes('saved memory'));
    assert.match(notice?.text ?? '', / as a global note: /);
  });

  test("the save prompts explain each kind and propose the slug from the selection's first line", async () => {
    await select('// Debounce the file watcher\nwatch(debounce(onChange, 150));\n', join(world.repo, 'watch.js'));
    try {
      const saving = run<string>('agentm.saveSelection');
      await waitFor('the kind picker', async () => ((await inspect()).savePrompt.step === 1 ? true : undefined));
      const kinds = (await inspect()).savePrompt.kinds;
      assert.equal(
        kinds[0]?.label,
        'Memory types: what your agent recalls',
        'memory types come first, under a heading',
      );
      assert.deepEqual(
        kinds.slice(1, 7).map((k) => k.label),
        ['preference', 'convention', 'reference', 'workflow', 'fix', 'idea'],
      );
      assert.match(kinds.find((k) => k.label === 'fix')?.description ?? '', /problem and what solved it/);
      assert.ok(
        kinds.some((k) => k.label === 'Record kinds: records of work'),
        'no record kinds heading',
      );
      const undescribed = kinds.filter((k) => !k.label.includes(':') && !k.description);
      assert.deepEqual(undescribed, [], 'a kind without a description');
      await acceptPrompt(1); // the first kind: preference
      assert.equal((await inspect()).savePrompt.suggestedSlug, 'debounce-the-file-watcher');
      await acceptPrompt(2); // the proposed slug as it is
      await acceptPrompt(3); // no tags
      const outcome = await saving;
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(
        vscode.Uri.parse(outcome.value).fsPath,
        join(world.vault, 'desk', 'projects', world.slug, 'preference', 'debounce-the-file-watcher.md'),
      );
      assert.match(readFileSync(vscode.Uri.parse(outcome.value).fsPath, 'utf8'), /```javascript\n\/\/ Debounce/);
      assert.equal((await inspect()).contextKeys['agentm.memory.saved'], true);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(join(world.repo, 'watch.js'), { force: true });
    }
  });

  test("invalid input is refused with core's validation message before anything is written; saving never overwrites", async () => {
    await select('Another thought.');
    const before = readdirSync(join(world.vault, 'desk', 'projects', world.slug, 'convention')).sort();
    const badSlug = await run('agentm.saveSelection', { kind: 'convention', slug: 'Bad Slug', tags: '' });
    assert.match(badSlug.ok ? '' : badSlug.message, /invalid slug "Bad Slug": it must match \^\[a-z0-9-\]\+\$/);
    const badTag = await run('agentm.saveSelection', { kind: 'convention', slug: 'fine', tags: 'ok, Not OK' });
    assert.match(badTag.ok ? '' : badTag.message, /invalid tag "Not OK"/);
    const existing = await run('agentm.saveSelection', { kind: 'decision', slug: 'prefer-stdlib', tags: '' });
    assert.match(
      existing.ok ? '' : existing.message,
      /a decision note 'prefer-stdlib' already exists .*saving never overwrites/,
    );
    const unknown = await run('agentm.saveSelection', { kind: 'lunch', slug: 'fine', tags: '' });
    assert.match(unknown.ok ? '' : unknown.message, /lunch.*preference, convention, reference, workflow, fix, idea/);
    assert.deepEqual(
      readdirSync(join(world.vault, 'desk', 'projects', world.slug, 'convention')).sort(),
      before,
      'a refused save wrote a file',
    );
  });

  test("kinds come from the vault's storage rules, as agentm files them; a broken rules block refuses, naming the file", async () => {
    const rules = world.file(
      'standards/storage-rules.md',
      [
        '# Storage rules',
        '',
        '```storage-rules',
        'memory_types: [preference, convention, meeting-note]',
        'record_kinds: [brief]',
        'deprecations: {minutes: meeting-note, decision: convention}',
        '```',
        '',
      ].join('\n'),
    );
    try {
      await select('Standup: the release moves to Friday.');
      const uri = await ok<string>('agentm.saveSelection', { kind: 'minutes', slug: 'standup', tags: '' });
      assert.equal(
        vscode.Uri.parse(uri).fsPath,
        join(world.vault, 'desk', 'projects', world.slug, 'meeting-note', 'standup.md'),
        'a retired name of the vault rules files under its replacement',
      );
      // The saved note is open now: select text again, in an editor of its own.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await select('Read the paper.');
      const refused = await run('agentm.saveSelection', { kind: 'research', slug: 'fine', tags: '' });
      assert.match(refused.ok ? '' : refused.message, /"research" is in neither register/);

      writeFileSync(rules, readFileSync(rules, 'utf8').replace('record_kinds: [brief]', 'record_kinds: [brief'));
      const broken = await run('agentm.saveSelection', { kind: 'convention', slug: 'fine', tags: '' });
      assert.ok(!broken.ok && broken.message.includes(rules), `not refused naming ${rules}: ${JSON.stringify(broken)}`);
      assert.ok(!existsSync(join(world.vault, 'desk', 'projects', world.slug, 'convention', 'fine.md')));
    } finally {
      rmSync(join(world.vault, 'standards'), { recursive: true, force: true });
    }
  });

  test('recall returns the saved note: the Recall view, and search', async () => {
    const view = await waitForView(
      'recall',
      'the saved note under the phase',
      (v) => findItem(v.items, 'Prefer the standard library for JSON.') !== undefined,
    );
    assert.match(view.items[0]!.label, /^Phase: /);
    const hit = findItem(view.items, 'Prefer the standard library for JSON.')!;
    assert.equal(hit.command, 'vscode.open');
    assert.equal(vscode.Uri.parse(hit.resource!).fsPath, saved);
  });

  test('the Recall… quick pick searches as you type and opens the chosen note', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { pick, picked } = await openRecallPick('liability', 'Prefer the standard library for JSON.');
    assert.equal(pick.value, 'liability');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const outcome = await picked;
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    assert.equal(vscode.Uri.parse(outcome.value).fsPath, saved);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, saved, 'the chosen note is not opened');
    const view = await waitForView('recall', 'the search results', (v) =>
      v.items.some((i) => i.label === 'Results for "liability"'),
    );
    assert.deepEqual(
      view.items.find((i) => i.label === 'Results for "liability"')!.children.map((c) => c.label),
      ['Prefer the standard library for JSON.'],
    );
  });

  test('a note written by someone else (an agent) is found without a reindex', async () => {
    world.file(
      `desk/projects/${world.slug}/fix/flaky-watcher.md`,
      '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [watcher]\n---\n\n# Debounce the watcher\n\nWatchers fire twice on rename.\n',
    );
    await waitForView(
      'recall',
      "the agent's note",
      (v) => findItem(v.items, 'Debounce the watcher') !== undefined,
      5_000,
    );
  });

  test('a progress log mixing every form of bookkeeping: Recall shows only its memories, by their titles (issue 19)', async () => {
    const shown = (items: readonly ItemSnapshot[]): string[] =>
      items.flatMap((i) => [i.label, i.description ?? '', i.tooltip ?? '', ...shown(i.children)]);
    const loads = (await inspect()).views.recall.loads;
    world.file(`desk/projects/${world.slug}/_harness/progress-mixed.md`, MIXED_PROGRESS_LOG);
    const phase = await waitForView('recall', 'the view reloaded after the log was written', (v) => v.loads > loads);
    for (const text of shown(phase.items)) assert.doesNotMatch(text, BOOKKEEPING_TEXT);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const title = 'The documentation site builds with mkdocs in strict mode.';
    const { pick, picked } = await openRecallPick('docs build running done mkdocs', title);
    for (const label of pick.items) assert.doesNotMatch(label, BOOKKEEPING_TEXT);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const outcome = await picked;
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    const view = await waitForView('recall', 'the search results', (v) =>
      v.items.some((i) => i.label === 'Results for "docs build running done mkdocs"'),
    );
    const results = view.items.find((i) => i.label === 'Results for "docs build running done mkdocs"')!;
    assert.ok(
      results.children.some((c) => c.label === title),
      `the results lack ${title}`,
    );
    for (const text of shown(view.items)) assert.doesNotMatch(text, BOOKKEEPING_TEXT);
  });

  test('reindex rebuilds the index with progress and a short result', async () => {
    const result = await ok<string>('agentm.reindex');
    assert.match(result, /^indexed \d+ documents? from \d+ files? in \d+ ms/);
    const { index } = await inspect();
    assert.equal(index.state, 'ready');
    assert.ok(index.dir && !index.dir.startsWith(world.vault), `the index must live outside the vault: ${index.dir}`);
    assert.match(index.dir, /index/);
  });

  test("consolidate distils the project's progress episodes into beliefs and advances the watermark", async () => {
    const episodes = ['the watcher fires twice on rename', 'the watcher fires twice on rename events'].map((text, i) =>
      makeObservation({
        kind: 'note',
        step: 'watch',
        attempt: 1,
        actor: 'agent',
        time: new Date(Date.UTC(2026, 2, 1, 10, i)),
        text,
      }),
    );
    world.file(`desk/projects/${world.slug}/_harness/progress.md`, appendObservations('', episodes));
    const result = await ok<string>('agentm.consolidate');
    assert.match(
      result,
      new RegExp(
        `^${world.slug}: \\d+ new episodes? in \\d+ clusters? → created \\d+, reinforced \\d+, decayed \\d+, pruned \\d+`,
      ),
    );
    assert.ok(existsSync(join(world.harness, 'consolidation.json')), 'the watermark was not written');
    // The belief is a note in agentm's format beside the project's other notes, as `agentm consolidate` writes it.
    const project = join(world.vault, 'desk/projects', world.slug);
    const beliefs = readdirSync(project, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md') && !f.startsWith('_harness'))
      .map((f) => readFileSync(join(project, f), 'utf8'))
      .filter((text) => /^tags: \[belief\]$/m.test(text));
    assert.equal(beliefs.length, 1, 'one belief note for the one cluster');
    assert.match(beliefs[0]!, /^confidence: 0\.5$/m);
    assert.match(beliefs[0]!, /^decay_windows: 0$/m);
    assert.match(beliefs[0]!, /the watcher fires twice on rename/);
    const again = await ok<string>('agentm.consolidate');
    assert.match(again, /: 0 new episodes/, 'a second run saw the same episodes again');
  });

  test("a note saved in VS Code is in an agent's next recall: a new process, no agentm mcp, no walk of the vault", async () => {
    // The agent's command line: the bundled CLI with the window's store and folder (the MCP definition's).
    const testing = (await extension().activate()) as TestingApi;
    const definition = testing.mcpProvider.provideMcpServerDefinitions()[0] as vscode.McpStdioServerDefinition;
    const agentm = (...args: string[]) =>
      spawnSync(definition.command, [...definition.args.slice(0, -1), ...args], {
        cwd: definition.cwd!.fsPath,
        env: { ...process.env, ...(definition.env as Record<string, string>) },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const built = agentm('reindex');
    assert.equal(built.status, 0, built.stderr);
    await select('Rotate the staging certificates every ninety days.');
    const uri = await ok<string>('agentm.saveSelection', { kind: 'workflow', slug: 'rotate-certs', tags: '' });
    const recalled = agentm('recall', 'staging certificates', '--json', '--all-projects');
    assert.equal(recalled.status, 0, recalled.stderr);
    const ids = (JSON.parse(recalled.stdout) as { items: { locator: string }[] }).items.map((i) => i.locator);
    assert.ok(
      ids.some((locator) => vscode.Uri.parse(uri).fsPath.endsWith(locator)),
      `${vscode.Uri.parse(uri).fsPath} not in ${JSON.stringify(ids)}`,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('recall finds a note by meaning through the agentm.providers.* embeddings, and by words when the endpoint fails', async () => {
    // A real OpenAI-compatible /v1/embeddings endpoint on 127.0.0.1: one dimension per topic word.
    const calls: string[][] = [];
    let down = false;
    const embed = (text: string) =>
      [/sedan|automobile|vehicle/i, /lock/i, /watcher/i, /library/i].map((re) => (re.test(text) ? 1 : 0));
    const server = await providerEndpoint(({ url, body }) => {
      const input = (body as { input: string[] }).input;
      calls.push(input);
      if (down || url !== '/v1/embeddings') return { status: 503, json: { error: 'down' } };
      return { status: 200, json: { data: input.map((text, index) => ({ index, embedding: embed(text) })) } };
    });
    world.file(
      `desk/projects/${world.slug}/reference/automobile.md`,
      '---\ntype: reference\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [parking]\n---\n\n# Automobile parked outside\n\nThe automobile is parked outside.\n',
    );
    const config = vscode.workspace.getConfiguration('agentm');
    try {
      await config.update('providers.baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update('providers.embeddingModel', 'itest-embed', vscode.ConfigurationTarget.Global);
      // No note holds the word "sedan" and the thesaurus links it to none ("car" it links to "automobile"):
      // only the vectors can find the automobile.
      await openRecallPick('sedan', 'Automobile parked outside');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.ok(
        calls.some((input) => input.includes('sedan')),
        `the query was not embedded: ${JSON.stringify(calls)}`,
      );
      down = true;
      const asked = calls.length;
      await openRecallPick('automobile', 'Automobile parked outside');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.ok(calls.length > asked, 'the failing endpoint was not tried');
    } finally {
      await config.update('providers.baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('providers.embeddingModel', undefined, vscode.ConfigurationTarget.Global);
      server.close();
    }
  });
});
