import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { extension, inspect, removeTempDirs, run, setVaultPath, tempDir, useVault } from './helpers';

suite('commands', () => {
  suiteSetup(async () => {
    await extension().activate();
  });
  suiteTeardown(async () => {
    useVault(undefined);
    await setVaultPath(undefined);
    removeTempDirs();
  });

  test('every contributed command is registered, and every registered AgentM command is contributed', async () => {
    const contributed: string[] = extension().packageJSON.contributes.commands.map(
      (c: { command: string }) => c.command,
    );
    const registered = (await vscode.commands.getCommands(true)).filter(
      (c) => c.startsWith('agentm.') && !/^agentm\.(plan|recall)\./.test(c),
    );
    assert.deepEqual([...registered].sort(), [...contributed].sort());
    assert.ok(contributed.length >= 15, `only ${contributed.length} commands contributed`);
  });

  test('every command has the AgentM category and an agentm.<verb> id', () => {
    for (const c of extension().packageJSON.contributes.commands as { command: string; category: string }[]) {
      assert.equal(c.category, 'AgentM', c.command);
      assert.match(c.command, /^agentm\.[a-z][A-Za-z]+$/);
    }
  });

  test('a command with nothing to act on says what to do, as a warning, and writes nothing', async () => {
    const vault = tempDir();
    useVault(vault);
    await run('agentm.refresh');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const save = await run('agentm.saveSelection');
    assert.equal(save.ok, false);
    assert.match(
      save.ok ? '' : save.message,
      /select the text to save in an editor first, then run "AgentM: Save selection as memory"/,
    );
    const runPlan = await run('agentm.runPlan');
    assert.match(
      runPlan.ok ? '' : runPlan.message,
      /no AgentM project detected here: no AgentM project in .*add \.harness\/project\.json/,
    );
    const stop = await run('agentm.stopPlan', 'nothing');
    assert.equal(stop.ok, false);
    const recent = (await inspect()).messages.filter((m) => m.userStarted && /select the text/.test(m.text));
    assert.equal(recent.at(-1)?.severity, 'warning');
    assert.deepEqual(readdirSync(vault), [], 'a refused command wrote into the vault');
  });

  test('every empty state of the two views has a welcome that links to a registered AgentM command', async () => {
    const welcomes: { view: string; when: string; contents: string }[] =
      extension().packageJSON.contributes.viewsWelcome;
    const registered = new Set(await vscode.commands.getCommands(true));
    const states = {
      'agentm.plan': ['noProject', 'noPlan', 'error'],
      'agentm.recall': ['noProject', 'memoryEmpty', 'error'],
    } as const;
    for (const [view, kinds] of Object.entries(states)) {
      for (const kind of kinds) {
        const welcome = welcomes.find((w) => w.view === view && w.when === `${view}.state == ${kind}`);
        assert.ok(welcome, `no welcome for ${view} in state ${kind}`);
        const links = [...welcome.contents.matchAll(/\(command:(agentm\.[A-Za-z]+)\)/g)].map((m) => m[1]!);
        assert.ok(links.length > 0, `the ${view} ${kind} welcome links to no command`);
        for (const id of links) assert.ok(registered.has(id), `${view} ${kind} links to unregistered ${id}`);
      }
    }
  });

  test('set phase stores the phase in settings and refuses an unknown phase naming the valid ones', async () => {
    const config = () => vscode.workspace.getConfiguration('agentm');
    const ok = await run('agentm.setPhase', 'review');
    assert.deepEqual(ok, { ok: true, value: 'review' });
    assert.equal(config().get('recall.phase'), 'review');
    const bad = await run('agentm.setPhase', 'lunch');
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.message, /'lunch' is not a phase; use one of setup, plan, work/);
    assert.equal(config().get('recall.phase'), 'review');
    await config().update(
      'recall.phase',
      undefined,
      vscode.workspace.workspaceFolders?.length
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global,
    );
  });

  test('the provider API key goes to secret storage, never to settings, and can be cleared', async () => {
    assert.equal((await inspect()).hasApiKey, false);
    assert.deepEqual(await run('agentm.setApiKey', 'sk-test-123'), { ok: true, value: true });
    assert.equal((await inspect()).hasApiKey, true);
    assert.ok(
      !JSON.stringify(vscode.workspace.getConfiguration('agentm')).includes('sk-test-123'),
      'the key leaked into settings',
    );
    assert.deepEqual(await run('agentm.clearApiKey'), { ok: true, value: true });
    assert.equal((await inspect()).hasApiKey, false);
  });
});
