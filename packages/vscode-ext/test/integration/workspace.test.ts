import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { appendObservations, makeObservation } from '@agentm/core/harness';
import {
  extension,
  leaveWorld,
  makeWorld,
  ok,
  openRecallPick,
  privateConfigPrefix,
  removeTempDirs,
  showViews,
  waitFor,
  type World,
} from './helpers';

/** What the registered model answers to the distiller: one belief, in the JSON the distiller asks for. */
const MODEL_BELIEF = 'The model says: debounce the file watcher by 150 ms.';
const MODEL_ANSWER = JSON.stringify({ distilled: true, kind: 'fix', statement: MODEL_BELIEF, confidence: 0.9 });

/** Searches through the Recall… quick pick; resolves with what it lists once a search after it opened answered. */
async function searchFor(query: string, expected: string): Promise<readonly string[]> {
  const { pick, picked } = await openRecallPick(query, expected);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await picked;
  return pick.items;
}

suite("the window's workspace: the configured spaces, and VS Code's language model", () => {
  let world: World;
  suiteSetup(async () => {
    await extension().activate();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('agentmItest.unregisterModel');
    await leaveWorld();
  });
  suiteTeardown(() => removeTempDirs());

  test('recall finds a note that lives only under the memory space the config names (spaces)', async () => {
    const configFile = privateConfigPrefix();
    writeFileSync(configFile, JSON.stringify({ 'plugins.obsidian-vault.spaces': { memory: 'knowledge/notes' } }));
    world = await makeWorld({
      'knowledge/notes/fix/flaky-watcher.md':
        '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [watcher]\n---\n\n# Debounce the watcher\n\nWatchers fire twice on rename.\n',
    });
    await showViews();
    assert.deepEqual(await searchFor('rename', 'Debounce the watcher'), ['Debounce the watcher']);
  });

  test('consolidation distils through the language model VS Code offers (a provider registered with vscode.lm)', async () => {
    privateConfigPrefix(); // no providers.* in agentm's config, no agentm.providers.* settings: VS Code's model is the one
    world = await makeWorld();
    assert.equal(await vscode.commands.executeCommand('agentmItest.registerModel', MODEL_ANSWER), true);
    await waitFor('VS Code to offer the registered model', async () => {
      const models = await vscode.lm.selectChatModels({ vendor: 'agentm-itest' });
      return models.length > 0 ? models : undefined;
    });
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
    mkdirSync(world.harness, { recursive: true });
    writeFileSync(join(world.harness, 'progress.md'), appendObservations('', episodes));
    const result = await ok<string>('agentm.consolidate');
    assert.match(result, /→ created 1,/, result);
    const requests = (await vscode.commands.executeCommand('agentmItest.requests')) as string[];
    assert.equal(requests.length, 1, 'one cluster, one request to the model');
    assert.match(requests[0]!, /Episodes:\n1\. .*the watcher fires twice on rename/);
    const project = join(world.vault, 'desk/projects', world.slug);
    const beliefs = readdirSync(project, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md') && !f.startsWith('_harness'))
      .map((f) => readFileSync(join(project, f), 'utf8'))
      .filter((text) => /^tags: \[belief\]$/m.test(text));
    assert.equal(beliefs.length, 1);
    assert.ok(beliefs[0]!.includes(MODEL_BELIEF), `the belief is not the model's: ${beliefs[0]}`);
    assert.match(beliefs[0]!, /^confidence: 0\.9$/m);
  });
});
