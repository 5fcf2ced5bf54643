import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { doctorLine, type DoctorCheck } from '@agentm/core';
import type { TestingApi } from '../../src/extension';
import {
  extension,
  inspect,
  leaveWorld,
  makeWorld,
  ok,
  privateConfigPrefix,
  removeTempDirs,
  run,
  setVaultPath,
  tempDir,
  toolText,
  useVault,
  withMcpServer,
  waitForStatus,
  workspaceFolder,
} from './helpers';

async function doctor(): Promise<DoctorCheck[]> {
  const outcome = await run<DoctorCheck[]>('agentm.doctor');
  assert.ok(outcome.ok, `doctor failed: ${outcome.ok ? '' : outcome.message}`);
  return outcome.value;
}

const check = (checks: DoctorCheck[], id: string) => checks.find((c) => c.id === id);
const line = (checks: DoctorCheck[], id: string) => {
  const found = check(checks, id);
  return found ? doctorLine(found) : '';
};

function writeConfig(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** What an agent in the window's folder reports of its store: the `agentm` CLI bundled with the extension, run there. */
function cliChecks(): DoctorCheck[] {
  const cli = spawnSync(process.execPath, [join(extension().extensionPath, 'dist', 'agentm.mjs'), 'doctor', '--json'], {
    cwd: workspaceFolder(),
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.ok(cli.stdout, `agentm doctor printed nothing: ${cli.stderr}`);
  return JSON.parse(cli.stdout) as DoctorCheck[];
}

/** What `agentm mcp`, started as VS Code starts it (the extension's server definition), reports of its store. */
async function mcpChecks(testing: TestingApi): Promise<DoctorCheck[]> {
  const definition = testing.mcpProvider.provideMcpServerDefinitions()[0] as vscode.McpStdioServerDefinition;
  return withMcpServer(definition, async (client) => {
    const answer = await client.callTool({ name: 'doctor', arguments: {} });
    return JSON.parse(toolText(answer)) as DoctorCheck[];
  });
}

/** The memory root a storage check names, and the lock directory a lock check names. */
function storeOf(checks: DoctorCheck[]): { root: string | undefined; lock: string | undefined } {
  return {
    root: /memory root (\S+) writable/.exec(check(checks, 'storage')?.message ?? '')?.[1],
    lock: /\((\S+\/lock)\)$/.exec(check(checks, 'lock')?.message ?? '')?.[1],
  };
}

suite('storage doctor', () => {
  let configFile: string;
  let savedPrefix: string | undefined;
  let testing: TestingApi;
  suiteSetup(async () => {
    testing = (await extension().activate()) as TestingApi;
    savedPrefix = process.env['AGENTM_INSTALL_PREFIX'];
    configFile = privateConfigPrefix();
    await ok('agentm.refresh'); // the watchers follow the new config prefix
  });
  suiteTeardown(async () => {
    if (savedPrefix === undefined) delete process.env['AGENTM_INSTALL_PREFIX'];
    else process.env['AGENTM_INSTALL_PREFIX'] = savedPrefix;
    await setVaultPath(undefined);
    await ok('agentm.refresh');
    removeTempDirs();
  });

  test("is the workspace's: the vault the shared config selects, agreement with the agents, the lock, the project", async () => {
    const world = await makeWorld();
    try {
      const checks = await doctor();
      assert.equal(checks[0]?.id, 'storage');
      assert.equal(checks[0]?.status, 'ok', checks[0]?.message);
      assert.match(checks[0]!.message, /selected backend 'vault' \(configured \(storage\.backend\)\)/);
      assert.ok(checks[0]!.message.includes(world.vault), checks[0]!.message);
      assert.match(
        line(checks, 'agreement'),
        /^agreement \[OK\] this editor and the agents in this folder share the memory root /,
      );
      assert.match(line(checks, 'lock'), /^lock \[OK\] free/);
      assert.equal(
        line(checks, 'project'),
        `project [OK] ${world.repo} is project '${world.slug}' (from .harness/project.json vault_project); plans in ${world.harness}`,
      );
      // The same checks, in the same words, as `agentm doctor` in this folder (the index is VS Code's own).
      const cli = cliChecks();
      for (const id of ['storage', 'lock', 'links', 'temps', 'conflicts', 'project'])
        assert.equal(line(checks, id), line(cli, id), id);
    } finally {
      await leaveWorld();
    }
  });

  test('the report opens as a read-only document, one whole check per line, not a toast', async () => {
    const world = await makeWorld();
    try {
      const doctorToasts = async () =>
        (await inspect()).messages.filter((m) => m.text.startsWith('AgentM doctor')).length;
      const toastsBefore = await doctorToasts();
      const checks = await doctor();
      const doc = vscode.window.activeTextEditor?.document;
      assert.equal(doc?.uri.scheme, 'agentm-doctor', 'the doctor report is not the active editor');
      assert.equal(doc.languageId, 'agentm-doctor', 'the report is not in its own (word-wrapped) language');
      assert.equal(
        vscode.workspace.getConfiguration('editor', { languageId: 'agentm-doctor' }).get('wordWrap'),
        'on',
        'long checks do not wrap',
      );
      assert.equal(doc.isUntitled, false);
      assert.notEqual(vscode.workspace.fs.isWritableFileSystem('agentm-doctor'), true, 'the report is writable');
      const lines = doc.getText().split('\n');
      assert.match(
        lines[0]!,
        new RegExp(
          `^AgentM doctor — \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC — ${checks.length} checks: \\d+ ok, 0 warning\\(s\\), 0 failure\\(s\\), \\d+ hint\\(s\\)$`,
        ),
      );
      assert.deepEqual(
        lines.slice(2, -1),
        checks.map((c) => doctorLine(c).replace(/\s*\r?\n\s*/g, ' · ')),
        'not one check per line, whole',
      );
      assert.ok(lines[2]!.includes(world.vault), lines[2]);
      assert.equal(await doctorToasts(), toastsBefore, 'an all-OK doctor still shows a toast');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await leaveWorld();
    }
  });

  test('names the device-local store when nothing is configured, with the hint to choose a vault', async function () {
    if (process.env['MEMORY_VAULT_PATH']) this.skip(); // the ext host was started with a vault
    useVault(undefined);
    await setVaultPath(undefined);
    const checks = await doctor();
    assert.match(checks[0]!.message, /selected backend 'device-local' \(fresh-install default\)/);
    assert.match(
      line(checks, 'setup'),
      /^setup \[HINT\] no vault is configured .* — to keep them in an Obsidian vault/,
    );
    assert.equal(check(checks, 'agreement')?.status, 'ok');
  });

  test("reads agentm's .agentm-config.json by default: the configured vault is selected", async () => {
    const vault = tempDir();
    writeConfig(
      configFile,
      JSON.stringify({ schema_version: 2, 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': vault }),
    );
    await setVaultPath(undefined);
    const checks = await doctor();
    assert.equal(checks[0]?.status, 'ok', checks[0]?.message);
    assert.match(checks[0]!.message, /selected backend 'vault' \(configured \(storage\.backend\)\)/);
    assert.ok(checks[0]!.message.includes(vault), checks[0]!.message);
  });

  test('a broken .agentm-config.json fails and names the fix; the status bar shows the trouble', async () => {
    writeConfig(configFile, '{"storage.backend": "vault",');
    const corrupt = await doctor();
    assert.equal(corrupt[0]?.status, 'fail');
    assert.ok(corrupt[0]!.message.includes(configFile), corrupt[0]!.message);
    assert.match(
      corrupt[0]!.message,
      /could not be read as JSON .* Fix the file \(a UTF-8 JSON object such as \{"storage\.backend": "vault"\}\) or remove it/,
    );
    const status = await waitForStatus('trouble');
    assert.match(status.statusBar.tooltip, /Fix the file/);
    const notice = status.messages.findLast((m) => m.text.startsWith('AgentM doctor: storage [FAIL]'));
    assert.equal(notice?.severity, 'error', 'no error notification for the failed doctor run');
    assert.deepEqual(notice?.actions, ['Show report']);
    assert.ok(
      vscode.window.activeTextEditor?.document.getText().includes(doctorLine(corrupt[0]!)),
      'the report does not show the failing check whole',
    );

    writeConfig(configFile, JSON.stringify({ 'storage.backend': 'vault' }));
    const noPath = await doctor();
    assert.equal(noPath[0]?.status, 'fail');
    assert.match(
      noPath[0]!.message,
      /'vault' is selected .* Set plugins\.obsidian-vault\.vault_path with: agentm config set vault_path <dir>/,
    );

    writeConfig(configFile, JSON.stringify({ 'storage.backend': 's3' }));
    const unknown = await doctor();
    assert.match(
      unknown[0]!.message,
      /storage backend 's3' is selected .* set storage\.backend to an installed backend .* Registered backends: .*vault/,
    );
    writeConfig(configFile, '{}');
    await waitForStatus('idle');
  });

  test('an agentm.vault.path that is a file, or missing, fails naming the setting and the fix', async () => {
    const file = join(tempDir(), 'not-a-folder.md');
    writeFileSync(file, '# not a vault\n');
    await setVaultPath(file);
    const checks = await doctor();
    assert.equal(checks[0]?.status, 'fail');
    assert.match(
      doctorLine(checks[0]!),
      /^storage \[FAIL\] the agentm\.vault\.path setting names the memory root .*not-a-folder\.md, which cannot be used: .* — set the agentm\.vault\.path setting to an existing folder, or clear it to use the shared \.agentm-config\.json$/,
    );
    const status = await waitForStatus('trouble');
    assert.match(status.statusBar.tooltip, /clear it to use the shared \.agentm-config\.json/);
    await setVaultPath(join(tempDir(), 'no-such-vault'));
    assert.match(
      doctorLine((await doctor())[0]!),
      /^storage \[FAIL\] the agentm\.vault\.path setting names the memory root .*no-such-vault/,
    );
    await setVaultPath(undefined);
  });

  test('choosing the vault and its agent folder puts VS Code, the agentm CLI and the MCP server on one memory root and lock; an override that splits them fails with the fix', async () => {
    const vault = realpathSync(tempDir('agentm-itest-obsidian-'));
    mkdirSync(join(vault, '.obsidian'));
    await setVaultPath(tempDir()); // an old override: choosing the vault must clear it
    const memoryRoot = await ok<string>('agentm.chooseVault', { vault, agentFolder: 'Agent' });
    assert.equal(memoryRoot, join(vault, 'Agent'));
    assert.equal(vscode.workspace.getConfiguration('agentm').get('vault.path'), '', 'the override was not cleared');
    assert.deepEqual(JSON.parse(readFileSync(configFile, 'utf8')), {
      schema_version: 2,
      'plugins.obsidian-vault.vault_path': vault,
      'storage.backend': 'vault',
      'plugins.obsidian-vault.memory_root': 'Agent',
    });
    await waitForStatus('idle', 'AgentM: vault');

    const editor = (await inspect()).storage;
    assert.equal(editor.memoryRoot, memoryRoot);
    const checks = await doctor();
    assert.equal(check(checks, 'agreement')?.status, 'ok', line(checks, 'agreement'));
    const cli = storeOf(cliChecks());
    const mcp = storeOf(await mcpChecks(testing));
    assert.deepEqual(
      cli,
      { root: memoryRoot, lock: editor.lockDir },
      'the CLI is not on the editor’s memory root and lock',
    );
    assert.deepEqual(
      mcp,
      { root: memoryRoot, lock: editor.lockDir },
      'the MCP server is not on the editor’s memory root and lock',
    );

    // The old way: the vault folder itself as this editor's memory root, while the agents use <vault>/Agent.
    await setVaultPath(vault);
    const split = await doctor();
    const agreement = check(split, 'agreement')!;
    assert.equal(agreement.status, 'fail');
    assert.ok(agreement.message.includes(`this editor keeps memory in ${vault} (lock `), agreement.message);
    assert.ok(agreement.message.includes(`uses ${memoryRoot} (lock ${editor.lockDir})`), agreement.message);
    assert.match(agreement.fix ?? '', /^clear agentm\.vault\.path .* or run "AgentM: Choose the vault…"/);
    assert.match(
      check(split, 'storage')!.message,
      /the memory root is set by the agentm\.vault\.path setting, overriding \.agentm-config\.json/,
    );
    const status = await waitForStatus('trouble', '(agentm.vault.path)');
    assert.match(status.statusBar.tooltip, /^agreement \[FAIL\] this editor keeps memory in /);
    const notice = status.messages.findLast((m) => m.text.startsWith('AgentM doctor: agreement [FAIL]'));
    assert.equal(notice?.severity, 'error');
    await setVaultPath(undefined);
    await waitForStatus('idle', 'AgentM: vault');
  });
});
