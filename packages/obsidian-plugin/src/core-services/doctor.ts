import type { Workspace } from '@agentm/core';
import { MEMORY_ROOT_SOURCE_TEXT } from '../memory-root.js';
import type { DoctorReport } from '../services.js';
import type { ServiceDeps } from './deps.js';

/** How the plugin and the agents on this machine are made to agree, in the plugin's words. */
const AGREE_FIX =
  "set the memory root folder in Settings → AgentM to the agents' agent folder, or point agentm at this one: agentm init --vault <this vault> --memory-root <folder>";

/**
 * The storage doctor: the workspace's checks (core's `doctor()`, the checks `agentm doctor` prints),
 * this vault's memory root compared with what agentm's config selects for the agents on this machine —
 * a different memory root or lock fails, naming the fix — and the plugin's memory root and where it
 * came from. The plugin adds, drops and rewords no check. It looks for no local embeddings server
 * (`detectLocal: false`): the plugin reaches only the providers the user configured, as its README says.
 */
export async function doctorReport(deps: ServiceDeps, ws: Workspace): Promise<DoctorReport> {
  const host = deps.host();
  const context = deps.context();
  const checks = await ws.doctor({ agents: { host: host.hostEnv, fix: AGREE_FIX }, detectLocal: false });
  return {
    checks,
    memoryRoot: {
      folder: context.folder === '' ? '/' : context.folder,
      source: MEMORY_ROOT_SOURCE_TEXT[context.memoryRoot.source],
      path: context.backend.root,
    },
  };
}
