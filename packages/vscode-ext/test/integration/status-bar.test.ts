import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { defaultLockRoot } from '@agentm/core/write-protocol';
import {
  extension,
  inspect,
  leaveWorld,
  makeWorld,
  removeTempDirs,
  repoRoot,
  run,
  setVaultPath,
  useVault,
  showViews,
  tempDir,
  waitFor,
  waitForStatus,
} from './helpers';

/** Starts test/fixtures/lock-holder.mjs, a real process holding the vault lock until killed. */
function holdLock(root: string): Promise<ChildProcess> {
  const fixture = join(repoRoot(), 'test', 'fixtures', 'lock-holder.mjs');
  // In desktop VS Code process.execPath is Electron: ELECTRON_RUN_AS_NODE makes it a plain node.
  const child = spawn(process.execPath, [fixture, root, defaultLockRoot(), '10000', 'forever'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lock holder did not take the lock: ${out}`)), 15_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('held ')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => reject(new Error(`lock holder exited (${code}) before holding the lock: ${out}`)));
  });
}

suite('status bar', () => {
  let holder: ChildProcess | undefined;
  suiteSetup(async () => {
    await extension().activate();
  });
  suiteTeardown(async () => {
    holder?.kill('SIGKILL');
    useVault(undefined);
    await setVaultPath(undefined);
    removeTempDirs();
  });

  test('shows the selected backend', async () => {
    useVault(tempDir());
    await run('agentm.refresh');
    const status = await waitForStatus('idle', 'AgentM: vault');
    assert.match(status.statusBar.text, /^\$\(database\) AgentM: vault$/);
    assert.match(status.statusBar.tooltip, /Click to run the storage doctor/);
  });

  test('spins while another process holds the vault lock, and stops when it lets go', async () => {
    const vault = tempDir();
    useVault(vault);
    await run('agentm.refresh');
    await waitForStatus('idle', 'AgentM: vault');
    holder = await holdLock(vault);
    const busy = await waitForStatus('agentWriting', '$(sync~spin)', 5_000);
    assert.match(busy.statusBar.text, /agent writing/);
    const exited = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGTERM'); // proper-lockfile removes the lock directory on SIGTERM
    await exited;
    holder = undefined;
    const idle = await waitForStatus('idle', 'AgentM: vault', 5_000);
    assert.doesNotMatch(idle.statusBar.text, /spin/);
  });

  test('a lock left by a killed agent stops spinning once its heartbeat is stale, and the doctor says so', async () => {
    const vault = tempDir();
    useVault(vault);
    await run('agentm.refresh');
    await waitForStatus('idle', 'AgentM: vault');
    holder = await holdLock(vault);
    await waitForStatus('agentWriting', '$(sync~spin)', 5_000);
    const exited = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGKILL'); // no cleanup: the lock directory stays, its heartbeat stops
    await exited;
    holder = undefined;
    // Nothing changes on disk any more: only the extension's stale deadline (10 s heartbeat) can notice.
    await waitForStatus('idle', 'AgentM: vault', 15_000);
    const doctor = await run<{ id: string; status: string; message: string; fix?: string }[]>('agentm.doctor');
    assert.ok(doctor.ok);
    const lock = doctor.value.find((c) => c.id === 'lock');
    assert.equal(lock?.status, 'warn');
    assert.match(lock?.message ?? '', /is stale \(heartbeat \d+\.\d s ago\): its holder is gone/);
    assert.equal(lock?.fix, 'nothing to do: the next writer takes it over');
  });

  test('a memory root deleted while in use is trouble; once another is chosen, the trouble clears', async () => {
    const world = await makeWorld({
      'memory/fix/gone.md':
        '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\n---\n\n# Gone soon\n',
    });
    try {
      await showViews();
      await waitFor('the index of the first vault', async () => {
        const index = (await inspect()).index;
        return index.state === 'ready' && index.memoryRoot === world.vault ? true : undefined;
      });
      rmSync(world.vault, { recursive: true, force: true });
      await waitForStatus('trouble', undefined, 15_000);
      useVault(tempDir('agentm-itest-vault-'));
      await run('agentm.refresh');
      await waitForStatus('idle', 'AgentM: vault', 15_000);
    } finally {
      await leaveWorld();
    }
  });
});
