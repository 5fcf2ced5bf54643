import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extension, removeTempDirs, run, setVaultPath, tempDir, waitForStatus } from './helpers';

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

suite('storage doctor', () => {
  suiteSetup(async () => {
    await extension().activate();
  });
  suiteTeardown(async () => {
    await setVaultPath(undefined);
    removeTempDirs();
  });

  test('names the vault backend selected through agentm.vault.path, and the free lock', async () => {
    const vault = tempDir();
    await setVaultPath(vault);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'ok', rows[0]?.line);
    assert.match(rows[0]!.line, /selected backend 'vault' \(the agentm\.vault\.path setting\)/);
    assert.ok(rows[0]!.line.includes(vault), rows[0]!.line);
    assert.match(rows[1]?.line ?? '', /^lock \[OK\] free/);
  });

  test('names the device-local store when no vault is configured', async function () {
    if (process.env['MEMORY_VAULT_PATH']) this.skip(); // the ext host was started with a vault
    await setVaultPath(undefined);
    const rows = await doctor();
    assert.match(rows[0]!.line, /selected backend 'device-local' \(fresh-install default; set agentm\.vault\.path or MEMORY_VAULT_PATH to use a vault\)/);
    assert.equal(rows.length, 1, 'device-local has no lock row');
  });

  test('on a vault path that is a file, fails and names the setting to fix; the status bar shows the trouble', async () => {
    const file = join(tempDir(), 'not-a-folder.md');
    writeFileSync(file, '# not a vault\n');
    await setVaultPath(file);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'fail');
    assert.match(rows[0]!.line, /is a file, not a folder — set agentm\.vault\.path to your vault's memory root folder/);
    const status = await waitForStatus('trouble');
    assert.match(status.statusBar.tooltip, /set agentm\.vault\.path/);
    assert.ok(status.messages.some((m) => m.severity === 'error' && m.text.startsWith('AgentM doctor: storage [FAIL]')), 'no error notification for the failed doctor run');
  });

  test('on a vault path that does not exist, fails and says to create it or fix the setting', async () => {
    const missing = join(tempDir(), 'no-such-vault');
    await setVaultPath(missing);
    const rows = await doctor();
    assert.equal(rows[0]?.status, 'fail');
    assert.match(rows[0]!.line, /does not exist — create that folder, or set agentm\.vault\.path/);
  });
});
