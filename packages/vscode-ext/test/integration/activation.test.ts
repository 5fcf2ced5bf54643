import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension, inspect, leaveWorld, makeWorld, removeTempDirs, waitFor } from './helpers';

const NOTE =
  '---\ntype: reference\nstatus: active\ncreated: 2026-01-02\nupdated: 2026-01-02\ntags: [startup]\n---\n\n# Where the index lives\n\nIn the extension global storage.\n';

suite('activation', () => {
  suiteSetup(async () => {
    // A bound project with one note, set up without running any AgentM command (that would activate it).
    const world = await makeWorld({}, { activate: false });
    world.file(`desk/projects/${world.slug}/reference/index-home.md`, NOTE);
  });
  suiteTeardown(async () => {
    await leaveWorld();
    removeTempDirs();
  });

  test('the extension stays inactive until an AgentM view or command is used', () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'activated before any AgentM view or command was used');
    const events: string[] = ext.packageJSON.activationEvents ?? [];
    assert.ok(
      !events.includes('*') && !events.includes('onStartupFinished'),
      `eager activation events: ${events.join(', ')}`,
    );
  });

  test('opening the AgentM Plan view activates the extension', async () => {
    await vscode.commands.executeCommand('agentm.plan.focus');
    await waitFor('the extension to activate', async () => (extension().isActive ? true : undefined));
  });

  test('the memory index opens only after the views are visible, never in activate()', async () => {
    const { activation, index } = await waitFor(
      'the Recall view to open the index',
      async () => {
        const i = await inspect();
        return i.index.state === 'ready' && i.activation.indexOpenToReadyMs !== undefined ? i : undefined;
      },
      30_000,
    );
    const m = activation.marks;
    assert.ok(m['agentm:view:visible'] !== undefined, `no view-visible mark: ${JSON.stringify(m)}`);
    assert.ok(
      m['agentm:index:open']! > m['agentm:activate:end']!,
      `index opened during activate(): ${JSON.stringify(m)}`,
    );
    assert.ok(
      activation.viewToIndexOpenMs! >= 0,
      `index opened before a view was visible: ${JSON.stringify(activation)}`,
    );
    assert.equal(index.documents, 1, `the index holds ${index.documents} documents, not the one note`);
  });

  test("activation time is measured from the extension's own performance marks", async () => {
    const { activation } = await waitFor('the first storage check', async () => {
      const i = await inspect();
      return i.activation.activateToStatusMs !== undefined ? i : undefined;
    });
    for (const [name, ms] of [
      ['module→activated', activation.moduleToActivatedMs],
      ['module evaluation', activation.moduleEvalMs],
      ['activate()', activation.activateMs],
      ['activate→status', activation.activateToStatusMs],
    ] as const) {
      assert.ok(typeof ms === 'number' && ms >= 0, `${name} not measured: ${JSON.stringify(activation)}`);
    }
    assert.ok(activation.moduleToActivatedMs! >= activation.activateMs!, 'module load must come before activate()');
    // The harness reads this line for its report (test/vscode/run.mjs).
    console.log(`[agentm-activation] ${JSON.stringify(activation)}`);
  });
});
