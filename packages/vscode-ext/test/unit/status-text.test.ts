import type { LockStatus } from '@agentm/core/write-protocol';
import { describe, expect, it } from 'vitest';
import type { StorageState } from '../../src/sources/types';
import { statusBarState } from '../../src/status-text';

const vault: StorageState = {
  status: 'ok',
  protocol: 'vault',
  checks: [{ id: 'storage', status: 'ok', message: "selected backend 'vault'" }],
  lockedStoreRoot: '/v',
  overridden: false,
};
const lock = (over: Partial<LockStatus>): LockStatus => ({
  lockDir: '/c/agentm/locks/h/lock',
  present: true,
  heartbeatAgeMs: 100,
  stale: false,
  heldByThisProcess: false,
  ...over,
});

describe('status bar text', () => {
  it('shows the selected backend when the lock is free', () => {
    expect(statusBarState(vault, lock({ present: false }), [])).toMatchObject({
      state: 'idle',
      text: '$(database) AgentM: vault',
    });
  });

  it('spins while another process holds the lock', () => {
    expect(statusBarState(vault, lock({}), [])).toMatchObject({
      state: 'agentWriting',
      text: '$(sync~spin) AgentM: vault — agent writing',
    });
  });

  it.each([
    ['a stale lock (its holder died)', lock({ stale: true })],
    ['a lock this window holds', lock({ heldByThisProcess: true })],
  ])('does not spin for %s', (_, status) => {
    expect(statusBarState(vault, status, []).state).toBe('idle');
  });

  it('shows trouble, with the fix in the tooltip, over an agent writing', () => {
    const s = statusBarState(vault, lock({}), [
      'AgentM: cannot watch the vault lock; check that your cache folder is writable',
    ]);
    expect(s.state).toBe('trouble');
    expect(s.tooltip).toContain('check that your cache folder is writable');
  });

  it('a failed selection is trouble naming the fix', () => {
    const failed: StorageState = {
      status: 'fail',
      protocol: 'vault',
      checks: [{ id: 'storage', status: 'fail', message: '…', fix: 'set agentm.vault.path' }],
      lockedStoreRoot: undefined,
      overridden: false,
    };
    expect(statusBarState(failed, undefined, [])).toMatchObject({ state: 'trouble', text: '$(warning) AgentM: vault' });
    expect(statusBarState(failed, undefined, []).tooltip).toContain('storage [FAIL] … — set agentm.vault.path');
  });

  it('an override of the shared config is said in the text, and a split from the agents is trouble', () => {
    const split: StorageState = {
      status: 'fail',
      protocol: 'vault',
      checks: [
        { id: 'storage', status: 'ok', message: "selected backend 'vault'" },
        { id: 'agreement', status: 'fail', message: 'this editor keeps memory in /v', fix: 'clear agentm.vault.path' },
      ],
      lockedStoreRoot: '/v',
      overridden: true,
    };
    const s = statusBarState(split, undefined, []);
    expect(s).toMatchObject({ state: 'trouble', text: '$(warning) AgentM: vault (agentm.vault.path)' });
    expect(s.tooltip).toBe(
      'agreement [FAIL] this editor keeps memory in /v — clear agentm.vault.path\nClick to run the storage doctor.',
    );
    expect(statusBarState({ ...split, status: 'ok', checks: split.checks.slice(0, 1) }, undefined, []).text).toBe(
      '$(database) AgentM: vault (agentm.vault.path)',
    );
  });
});
