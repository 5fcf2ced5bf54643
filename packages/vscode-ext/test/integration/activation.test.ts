import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension, inspect, waitFor } from './helpers';

suite('activation', () => {
  test('the extension stays inactive until an AgentM view or command is used', () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'activated before any AgentM view or command was used');
    const events: string[] = ext.packageJSON.activationEvents ?? [];
    assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), `eager activation events: ${events.join(', ')}`);
  });

  test('opening the AgentM Plan view activates the extension', async () => {
    await vscode.commands.executeCommand('agentm.plan.focus');
    await waitFor('the extension to activate', async () => (extension().isActive ? true : undefined));
  });

  test('activation time is measured from the extension\'s own performance marks', async () => {
    const { activation } = await waitFor('the first storage check', async () => {
      const i = await inspect();
      return i.activation.activateToStatusMs !== undefined ? i : undefined;
    });
    for (const [name, ms] of [['module→activated', activation.moduleToActivatedMs], ['module evaluation', activation.moduleEvalMs], ['activate()', activation.activateMs], ['activate→status', activation.activateToStatusMs]] as const) {
      assert.ok(typeof ms === 'number' && ms >= 0, `${name} not measured: ${JSON.stringify(activation)}`);
    }
    assert.ok(activation.moduleToActivatedMs! >= activation.activateMs!, 'module load must come before activate()');
    // The harness reads this line for its report (test/vscode/run.mjs).
    console.log(`[agentm-activation] ${JSON.stringify(activation)}`);
  });
});
