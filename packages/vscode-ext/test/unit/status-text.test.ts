import type { LockStatus } from '@agentm/core/protocol';
import { describe, expect, it } from 'vitest';
import type { StoragePreview } from '../../src/sources/types';
import { statusBarState } from '../../src/status-text';

const vault: StoragePreview = {
  status: 'ok',
  protocol: 'vault',
  line: "storage [OK] selected backend 'vault'",
  lockedStoreRoot: '/v',
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
    const failed: StoragePreview = {
      status: 'fail',
      protocol: 'vault',
      line: 'storage [FAIL] … — set agentm.vault.path',
      lockedStoreRoot: undefined,
    };
    expect(statusBarState(failed, undefined, [])).toMatchObject({ state: 'trouble', text: '$(warning) AgentM: vault' });
    expect(statusBarState(failed, undefined, []).tooltip).toContain('set agentm.vault.path');
  });
});
