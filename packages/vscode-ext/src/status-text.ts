// Pure: what the status bar item says for the storage checks, a lock status and background trouble.
import { doctorLine } from '@agentm/core';
import type { LockStatus } from '@agentm/core/write-protocol';
import type { StorageState } from './sources/types';

/** What the status bar item shows, in data (the inspect command hands this to tests). */
export interface StatusBarState {
  readonly text: string;
  readonly tooltip: string;
  readonly state: 'idle' | 'agentWriting' | 'trouble' | 'loading';
}

/**
 * Pure: what to show for the quick checks (storage, and this editor against its agents), a lock status
 * and any background trouble. A failed check is trouble; an `agentm.vault.path` override is said in the
 * text, so nobody forgets this editor does not read the shared config.
 */
export function statusBarState(
  storage: StorageState | undefined,
  lock: LockStatus | undefined,
  trouble: readonly string[],
): StatusBarState {
  if (!storage)
    return { text: '$(loading~spin) AgentM', tooltip: 'AgentM: checking the storage backend…', state: 'loading' };
  const click = 'Click to run the storage doctor.';
  const lines = storage.checks.map(doctorLine);
  const name = `${storage.protocol ?? 'no backend'}${storage.overridden ? ' (agentm.vault.path)' : ''}`;
  if (storage.status === 'fail' || trouble.length > 0) {
    const failing = storage.checks.filter((c) => c.status === 'fail').map(doctorLine);
    return {
      text: `$(warning) AgentM: ${name}`,
      tooltip: `${[...failing, ...trouble].join('\n')}\n${click}`,
      state: 'trouble',
    };
  }
  if (lock?.present && !lock.stale && !lock.heldByThisProcess) {
    return {
      text: `$(sync~spin) AgentM: ${name} — agent writing`,
      tooltip: `An agent holds the vault lock (${lock.lockDir}).\n${lines.join('\n')}\n${click}`,
      state: 'agentWriting',
    };
  }
  return { text: `$(database) AgentM: ${name}`, tooltip: `${lines.join('\n')}\n${click}`, state: 'idle' };
}
