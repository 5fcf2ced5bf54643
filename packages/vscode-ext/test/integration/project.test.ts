import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  extension,
  inspect,
  ok,
  removeTempDirs,
  run,
  setVaultPath,
  useVault,
  configFile,
  showViews,
  tempDir,
  waitFor,
  waitForView,
  workspaceFolder,
} from './helpers';

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string };
  completionEvents: string[];
}

const projectJson = () => join(workspaceFolder(), '.harness', 'project.json');

suite('getting started: bind the folder, choose the vault, the walkthrough', () => {
  let vault: string;
  suiteSetup(async () => {
    await extension().activate();
    vault = tempDir('agentm-itest-vault-');
    rmSync(join(workspaceFolder(), '.harness'), { recursive: true, force: true });
    useVault(vault);
    await ok('agentm.refresh');
    await showViews();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspaceFolder(), '.harness'), { recursive: true, force: true });
    useVault(undefined);
    await setVaultPath(undefined);
    await ok('agentm.refresh');
    removeTempDirs();
  });

  test('an unbound folder shows the no-project welcome, which links to "Bind this folder to a project"', async () => {
    await waitForView('plan', 'the no-project state', (v) => v.state === 'noProject');
    const welcome = (
      extension().packageJSON.contributes.viewsWelcome as { view: string; when: string; contents: string }[]
    ).find((w) => w.view === 'agentm.plan' && w.when === 'agentm.plan.state == noProject');
    assert.match(welcome?.contents ?? '', /\[Bind this folder to a project\]\(command:agentm\.bindProject\)/);
    assert.equal((await inspect()).contextKeys['agentm.project.bound'], false);
  });

  test('bind writes .harness/project.json through core, and the views follow the project', async () => {
    const outcome = await ok<{ outcome: string; file: string; slug: string }>('agentm.bindProject', 'bound-demo');
    assert.deepEqual(outcome, { outcome: 'created', file: projectJson(), slug: 'bound-demo' });
    assert.equal(readFileSync(projectJson(), 'utf8'), '{\n  "vault_project": "bound-demo"\n}\n');
    await waitForView('plan', 'the no-plan state of the bound project', (v) => v.state === 'noPlan', 5_000);
    await waitFor('the bound context key', async () =>
      (await inspect()).contextKeys['agentm.project.bound'] === true ? true : undefined,
    );
    const again = await ok<{ outcome: string }>('agentm.bindProject', 'bound-demo');
    assert.equal(again.outcome, 'unchanged');
  });

  test('bind never overwrites: another project is refused naming the fix; other keys are kept', async () => {
    const before = readFileSync(projectJson(), 'utf8');
    const refused = await run('agentm.bindProject', 'other-project');
    assert.match(
      refused.ok ? '' : refused.message,
      /already binds this folder to project "bound-demo".*edit "vault_project" there by hand/,
    );
    assert.equal(readFileSync(projectJson(), 'utf8'), before, 'a refused bind changed the file');

    writeFileSync(projectJson(), '{"github": {"repo": "owner/demo"}, "type": "harness"}\n');
    await ok('agentm.bindProject', 'demo-two');
    assert.deepEqual(JSON.parse(readFileSync(projectJson(), 'utf8')), {
      github: { repo: 'owner/demo' },
      type: 'harness',
      vault_project: 'demo-two',
    });
    const unsafe = await run('agentm.bindProject', '../escape');
    assert.match(unsafe.ok ? '' : unsafe.message, /cannot be a project: a project slug is one folder name/);
  });

  test('choose the vault writes the vault and its agent folder into the shared config; bad input writes nothing', async () => {
    const other = realpathSync(tempDir('agentm-itest-vault-'));
    const before = readFileSync(configFile(), 'utf8');
    const file = join(other, 'note.md');
    writeFileSync(file, '# not a folder\n');
    const refused = await run('agentm.chooseVault', { vault: file, agentFolder: 'Agent' });
    assert.match(refused.ok ? '' : refused.message, /is not a folder; choose your Obsidian vault's folder/);
    const outside = await run('agentm.chooseVault', { vault: other, agentFolder: '../up' });
    assert.match(
      outside.ok ? '' : outside.message,
      /'\.\.\/up' cannot be the agent folder: it takes a folder inside the vault/,
    );
    assert.equal(readFileSync(configFile(), 'utf8'), before, 'a refused choice wrote the config');
    assert.equal(
      await ok('agentm.chooseVault', { vault: other, agentFolder: 'Notes/Agent' }),
      join(other, 'Notes', 'Agent'),
    );
    const config = JSON.parse(readFileSync(configFile(), 'utf8')) as Record<string, unknown>;
    assert.equal(config['plugins.obsidian-vault.vault_path'], other);
    assert.equal(config['plugins.obsidian-vault.memory_root'], 'Notes/Agent');
    assert.equal(vscode.workspace.getConfiguration('agentm').get('vault.path'), '', 'choosing wrote the override');
    useVault(vault);
    await ok('agentm.refresh');
  });

  test('the walkthrough: choose the vault, bind the folder, save a first memory, run a plan — each step links to its command', async () => {
    const walkthroughs = extension().packageJSON.contributes.walkthroughs as { id: string; steps: WalkthroughStep[] }[];
    const steps = walkthroughs.find((w) => w.id === 'getStarted')?.steps ?? [];
    assert.deepEqual(
      steps.map((s) => s.title),
      ['Choose the vault', 'Bind this folder to a project', 'Save a first memory', 'Run a plan'],
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    const first = ['agentm.chooseVault', 'agentm.bindProject', 'agentm.saveSelection', 'agentm.runPlan'];
    steps.forEach((step, i) => {
      const links = [...step.description.matchAll(/\(command:([A-Za-z.]+)\)/g)].map((m) => m[1]!);
      assert.equal(links[0], first[i], `step ${step.id} does not link to ${first[i]} first`);
      for (const id of links) assert.ok(registered.has(id), `step ${step.id} links to unregistered ${id}`);
      assert.ok(step.completionEvents.length > 0, `step ${step.id} never completes`);
      const media = join(extension().extensionPath, step.media.markdown ?? '');
      assert.ok(step.media.markdown && existsSync(media), `step ${step.id} has no media file (${media})`);
    });
  });

  test('"AgentM: Get started" opens the walkthrough', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await ok('agentm.getStarted'), 'agentm.agentm-vscode#getStarted');
    await waitFor('the walkthrough editor', async () => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.label === 'Welcome' ? tab : undefined;
    });
  });

  test('Stop and Retry are hidden from the palette unless a plan runs / a step failed', async () => {
    const palette = extension().packageJSON.contributes.menus.commandPalette as { command: string; when: string }[];
    const when = (command: string) => palette.find((p) => p.command === command)?.when;
    assert.equal(when('agentm.stopPlan'), 'agentm.plan.running');
    assert.equal(when('agentm.retryStep'), 'agentm.plan.hasFailedStep');
    // The keys those clauses read are set by the extension from what it sees (running plans, the plans' steps).
    mkdirSync(join(vault, 'desk', 'projects', 'demo-two', '_harness'), { recursive: true });
    writeFileSync(join(vault, 'desk', 'projects', 'demo-two', '_harness', 'PLAN.md'), '- [!] Broke [id:: broke]\n');
    await waitFor('the failed step to set the key', async () =>
      (await inspect()).contextKeys['agentm.plan.hasFailedStep'] === true ? true : undefined,
    );
    writeFileSync(join(vault, 'desk', 'projects', 'demo-two', '_harness', 'PLAN.md'), '- [x] Fixed [id:: broke]\n');
    await ok('agentm.refresh'); // as a person would; the watchers' latency is the Plan view suite's subject
    await waitFor('no failed step to clear the key', async () =>
      (await inspect()).contextKeys['agentm.plan.hasFailedStep'] === false ? true : undefined,
    );
    assert.equal((await inspect()).contextKeys['agentm.plan.running'] ?? false, false);
  });
});
