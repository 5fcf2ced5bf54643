// Pure: what the status bar item says for a backend preview, a lock status and background trouble.
import type { LockStatus } from '@agentm/core/protocol';
import type { StoragePreview } from './sources/types';

/** What the status bar item shows, in data (the inspect command hands this to tests). */
export interface StatusBarState {
  readonly text: string;
  readonly tooltip: string;
  readonly state: 'idle' | 'agentWriting' | 'trouble' | 'loading';
}

/** Pure: what to show for a backend preview, a lock status and any background trouble. */
export function statusBarState(
  preview: StoragePreview | undefined,
  lock: LockStatus | undefined,
  trouble: readonly string[],
): StatusBarState {
  if (!preview)
    return { text: '$(loading~spin) AgentM', tooltip: 'AgentM: checking the storage backend…', state: 'loading' };
  const click = 'Click to run the storage doctor.';
  if (preview.status === 'fail' || trouble.length > 0) {
    const lines = [...(preview.status === 'fail' ? [preview.line] : []), ...trouble];
    return {
      text: `$(warning) AgentM: ${preview.protocol ?? 'no backend'}`,
      tooltip: `${lines.join('\n')}\n${click}`,
      state: 'trouble',
    };
  }
  if (lock?.present && !lock.stale && !lock.heldByThisProcess) {
    return {
      text: `$(sync~spin) AgentM: ${preview.protocol} — agent writing`,
      tooltip: `An agent holds the vault lock (${lock.lockDir}).\n${preview.line}\n${click}`,
      state: 'agentWriting',
    };
  }
  return { text: `$(database) AgentM: ${preview.protocol}`, tooltip: `${preview.line}\n${click}`, state: 'idle' };
}
