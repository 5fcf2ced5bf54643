import { Workspace, worstCheck, type DoctorCheck, type DoctorOptions } from '@agentm/core';
import { readSettings } from '../settings';
import { AGREE_FIX, agentsHost, VAULT_OVERRIDE } from './host';
import type { ProjectTracker, WorkspaceState } from './project-tracker';
import type { Doctor, StorageState } from './types';

/**
 * The doctor of this window: the workspace's own checks (core's `doctor()`: the same checks, in the same
 * words, as `agentm doctor` and the MCP doctor tool), with this editor compared against the agents in
 * its folder — the `agreement` check fails, naming the fix, when the editor's memory root or lock is not
 * theirs (the `agentm.vault.path` override, when set, is named as such). Nothing here adds, drops or
 * rewords a check. Never throws.
 */
export function createDoctor(tracker: ProjectTracker): Doctor {
  const options = (quick: boolean): DoctorOptions => {
    const overridden = readSettings().vaultPath !== '';
    return {
      quick,
      agents: { host: agentsHost(), ...(overridden ? { override: VAULT_OVERRIDE } : {}), fix: AGREE_FIX },
    };
  };
  const checks = async (quick: boolean): Promise<{ checks: DoctorCheck[]; ws: WorkspaceState | undefined }> => {
    let ws: WorkspaceState;
    try {
      ws = await tracker.current();
    } catch {
      // The store cannot be produced: the doctor opens it itself, to say why.
      return { checks: await Workspace.doctor(tracker.openOptions(), options(quick)), ws: undefined };
    }
    return { checks: await ws.workspace.doctor(options(quick)), ws };
  };
  const failed = (error: unknown): DoctorCheck[] => [
    { id: 'storage', status: 'fail', message: error instanceof Error ? error.message : String(error) },
  ];
  return {
    async status(): Promise<StorageState> {
      const { checks: found, ws } = await checks(true).catch((error: unknown) => ({
        checks: failed(error),
        ws: undefined,
      }));
      const worst = worstCheck(found)!;
      return {
        status: worst.status === 'info' ? 'ok' : worst.status,
        protocol: ws?.workspace.protocol,
        checks: found,
        lockedStoreRoot: ws?.memoryRoot,
        overridden: readSettings().vaultPath !== '',
      };
    },
    async run(): Promise<readonly DoctorCheck[]> {
      return (await checks(false).catch((error: unknown) => ({ checks: failed(error) }))).checks;
    },
  };
}
