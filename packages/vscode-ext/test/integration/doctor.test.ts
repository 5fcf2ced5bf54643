import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
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
  waitForStatus,
} from './helpers';

interface Row {
  check: string;
  status: string;
  line: string;
}

async function doctor(): Promise<Row[]> {
  const outcome = await run<Row[]>('agentm.doctor');
  assert.ok(outcome.ok, `doctor failed: ${outcome.ok ? '' : outcome.message}`);
  return outcome.value;
}

const row = (rows: Row[], check: string) => rows.find((r) => r.check === check);

function writeConfig(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

suite('storage doctor', () => {
  let configFile: string;
  let savedPrefix: string | undefined;
  suiteSetup(async () => {
    await extension().activate();
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

  test('names the vault backend selected through agentm.vault.path, the free lock and the bound project', async () => {
    const world = await makeWorld();
    try {
      const rows = await doctor();
      assert.equal(rows[0]?.status, 'ok', rows[0]?.line);
      assert.match(rows[0]!.line, /selected backend 'vault' \(the agentm\.vault\.path setting\)/);
      assert.ok(rows[0]!.line.includes(world.vault), rows[0]!.line);
      assert.match(row(rows, 'lock')?.line ?? '', /^lock \[OK\] free/);
      assert.match(
        row(rows, 'project')?.line ?? '',
        new RegExp(
          `^project \\[OK\\] '${world.slug}' \\(.*project\\.json.*\\) — plans and progress in .*_harness \\(synced\\)`,
        ),
      );
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
      const rows = await doctor();
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
        /^AgentM doctor — \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC — 3 checks: 3 ok, 0 warning\(s\), 0 failure\(s\)$/,
      );
      assert.deepEqual(
        lines.slice(2, -1),
        rows.map((r) => r.line),
        'not one check per line, whole',
      );
      assert.ok(lines[2]!.includes(world.vault), lines[2]);
      assert.equal(await doctorToasts(), toastsBefore, 'an all-OK doctor still shows a toast');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await leaveWorld();
    }
  });

  test('names the device-local store when nothing is configured, and says how to bind a project', async function () {
    if (process.env['MEMORY_VAULT_PATH']) this.skip(); // the ext host was started with a vault
    await setVaultPath(undefined);
    const rows = await doctor();
    assert.match(rows[0]!.line, /selected backend 'device-local' \(fresh-install default\)/);
    assert.equal(row(rows, 'lock'), undefined, 'device-local has no lock row');
    assert.match(
      row(rows, 'project')?.line ?? '',
      /^project \[WARN\] no AgentM project in .*: add \.harness\/project\.json with \{"vault_project": "<slug>"\}/,
    );
  });

  test("reads agentm's .agentm-config.json by default: the configured vault is selected", async () => {
    const vault = tempDir();
    writeConfig(
      configFile,
      JSON.stringify({ schema_version: 2, 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': vault }),
    );
    await setVaultPath(undefined);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'ok', rows[0]?.line);
    assert.match(rows[0]!.line, /selected backend 'vault' \(configured \(storage\.backend\)\)/);
    assert.ok(rows[0]!.line.includes(vault), rows[0]!.line);
  });

  test('a broken .agentm-config.json fails and names the fix; the status bar shows the trouble', async () => {
    writeConfig(configFile, '{"storage.backend": "vault",');
    const corrupt = await doctor();
    assert.equal(corrupt[0]?.status, 'fail');
    assert.ok(corrupt[0]!.line.includes(configFile), corrupt[0]!.line);
    assert.match(
      corrupt[0]!.line,
      /could not be read as JSON .* Fix the file \(a UTF-8 JSON object such as \{"storage\.backend": "vault"\}\) or remove it/,
    );
    const status = await waitForStatus('trouble');
    assert.match(status.statusBar.tooltip, /Fix the file/);
    const notice = status.messages.findLast((m) => m.text.startsWith('AgentM doctor: storage [FAIL]'));
    assert.equal(notice?.severity, 'error', 'no error notification for the failed doctor run');
    assert.deepEqual(notice?.actions, ['Show report']);
    assert.ok(
      vscode.window.activeTextEditor?.document.getText().includes(corrupt[0]!.line),
      'the report does not show the failing check whole',
    );

    writeConfig(configFile, JSON.stringify({ 'storage.backend': 'vault' }));
    const noPath = await doctor();
    assert.equal(noPath[0]?.status, 'fail');
    assert.match(
      noPath[0]!.line,
      /'vault' is selected .* Set plugins\.obsidian-vault\.vault_path with: agentm config set vault_path <dir>/,
    );

    writeConfig(configFile, JSON.stringify({ 'storage.backend': 's3' }));
    const unknown = await doctor();
    assert.match(
      unknown[0]!.line,
      /storage backend 's3' is selected .* set storage\.backend to an installed backend .* Registered backends: .*vault/,
    );
    writeConfig(configFile, '{}');
    await waitForStatus('idle');
  });

  test('on a vault path that is a file, fails and names the setting to fix', async () => {
    const file = join(tempDir(), 'not-a-folder.md');
    writeFileSync(file, '# not a vault\n');
    await setVaultPath(file);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'fail');
    assert.match(
      rows[0]!.line,
      /from the agentm\.vault\.path setting is a file, not a folder — set agentm\.vault\.path to your vault's memory root folder/,
    );
    const status = await waitForStatus('trouble');
    assert.match(status.statusBar.tooltip, /set agentm\.vault\.path/);
  });

  test('on a vault path that does not exist, fails and says to create it or fix the setting', async () => {
    const missing = join(tempDir(), 'no-such-vault');
    await setVaultPath(missing);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'fail');
    assert.match(rows[0]!.line, /does not exist — create that folder, or set agentm\.vault\.path/);
  });
});
