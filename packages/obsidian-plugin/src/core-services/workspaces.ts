import { stat } from 'node:fs/promises';
import { configFilePath } from '@agentm/core/config';
import { Workspace } from '@agentm/core';
import type { ObsidianVaultBackend } from '../vault-backend.js';
import type { ServiceDeps } from './deps.js';

/** agentm's config file as it is now (size and mtime), `absent` when there is none. */
async function configStamp(file: string): Promise<string> {
  try {
    const st = await stat(file);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'absent';
  }
}

interface Built {
  readonly backend: ObsidianVaultBackend;
  readonly stamp: string;
  readonly workspace: Promise<Workspace>;
}

/**
 * The workspace of the current memory root: core's one object over the in-vault backend, with agentm's
 * config (spaces, vocabulary, providers) read once. Rebuilt here and only here when what it was built
 * from changes: another memory root (the settings make a new backend), or agentm's config file (its size
 * and mtime, checked at each use — a stat; Obsidian does not watch files outside the vault).
 */
export class WorkspaceCache {
  #built: Built | undefined;

  constructor(private readonly deps: ServiceDeps) {}

  async current(): Promise<Workspace> {
    const { backend } = this.deps.context();
    const host = this.deps.host();
    const stamp = await configStamp(configFilePath(host.hostEnv));
    const built = this.#built;
    if (built && built.backend === backend && built.stamp === stamp) return built.workspace;
    const workspace = Workspace.open({
      host: host.hostEnv,
      backend,
      lockRoot: host.lockRoot,
      now: () => host.now(),
    });
    this.#built = { backend, stamp, workspace };
    workspace.catch(() => {
      if (this.#built?.workspace === workspace) this.#built = undefined;
    });
    return workspace;
  }
}
