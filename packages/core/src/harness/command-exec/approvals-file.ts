import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { commitWrite, prepareWrite, syncDirectory } from '../../write-protocol/atomic-write.js';
import { defaultLockRoot, realpathLoose, withVaultLock } from '../../write-protocol/vault-lock.js';
import { emptyApprovals, parseApprovals, serializeApprovals, type Approvals } from './approvals.js';

/**
 * `$XDG_CONFIG_HOME/agentm/approvals.json`, else `~/.config/agentm/approvals.json`: the user's config
 * directory on this machine, never the vault and never the repo (a `git pull` must not approve anything).
 */
export function approvalsFilePath(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const xdg = env['XDG_CONFIG_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.config'), 'agentm', 'approvals.json');
}

/** The key approvals are kept under for a repo: the real path of its root. */
export function repoKey(projectRoot: string): string {
  return realpathLoose(projectRoot);
}

/** The approvals on disk; absent → none; unreadable or corrupt → `ApprovalsFileError`. */
export async function readApprovals(file: string): Promise<Approvals> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyApprovals();
    throw error;
  }
  return parseApprovals(text, file);
}

/**
 * Read-modify-write of the approvals file under the agentm lock keyed on its directory (two runs
 * approving at once both land), written atomically with mode 0600 from the start. `change` returning
 * the same object writes nothing. Returns what it decided.
 */
export async function updateApprovals<T>(
  file: string,
  change: (current: Approvals) => { approvals: Approvals; result: T },
  options: { env?: NodeJS.ProcessEnv; home?: string; lockRoot?: string } = {},
): Promise<T> {
  const dir = dirname(file);
  return withVaultLock(
    dir,
    async (hold) => {
      const current = await readApprovals(file);
      const { approvals, result } = change(current);
      if (approvals === current) return result;
      const prepared = await prepareWrite(file, serializeApprovals(approvals), { mode: 0o600 });
      await commitWrite(prepared, () => hold.assertHeld());
      await syncDirectory(dir);
      return result;
    },
    { lockRoot: options.lockRoot ?? defaultLockRoot(options.env ?? process.env, options.home) },
  );
}
