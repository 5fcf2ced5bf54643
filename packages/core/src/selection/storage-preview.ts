import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';
import { planSelection, type SelectOptions } from './select-backend.js';

/** The outcome of a check, as every doctor (CLI, VS Code, Obsidian) reports it. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One doctor row about storage: what the runtime would select, and whether it could. */
export interface StoragePreview {
  readonly status: CheckStatus;
  /** The protocol that would be selected; undefined when the configuration is refused before that. */
  readonly protocol: string | undefined;
  readonly origin: string | undefined;
  readonly root: string | undefined;
  /** What would be selected and whether it could, or the runtime's refusal message (which names the fix). */
  readonly message: string;
  /** `storage [OK] …` / `storage [WARN] …` / `storage [FAIL] …`: the message as the doctor's row. */
  readonly line: string;
}

const TAGS: Readonly<Record<CheckStatus, string>> = { ok: 'OK', warn: 'WARN', fail: 'FAIL' };

function preview(status: CheckStatus, message: string, rest: Omit<StoragePreview, 'status' | 'message' | 'line'>) {
  return { ...rest, status, message, line: `storage [${TAGS[status]}] ${message}` };
}

/** Whether `path` (or its nearest existing ancestor) is writable by this process. */
export async function isWritable(path: string): Promise<boolean> {
  for (let p = path; ; p = dirname(p)) {
    try {
      await access(p, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) return false;
    }
  }
}

/**
 * What `selectBackend` would do, without doing it: never throws, never constructs a backend, never
 * creates a directory or writes a file. A refusal becomes a `fail` row carrying the runtime's exact
 * message (agentm's preview crashes when the vault has no path; ours reports it).
 */
export async function storagePreview(options: SelectOptions = {}): Promise<StoragePreview> {
  try {
    const plan = await planSelection(options);
    const head = `selected backend '${plan.protocol}' (${plan.origin})`;
    const base = { protocol: plan.protocol, origin: plan.origin, root: plan.root };
    if (plan.root === undefined)
      return preview('ok', `${head} — registered${plan.store ? `; store ${plan.store}` : ''}`, base);
    const kind = plan.protocol === 'vault' ? 'memory root' : 'root';
    if (!(await isWritable(plan.root)))
      return preview('warn', `${head} — registered, but ${kind} ${plan.root} is not writable`, base);
    return preview('ok', `${head} — registered; ${kind} ${plan.root} writable`, base);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const protocol = (error as { protocol?: unknown }).protocol;
    return preview('fail', message, {
      protocol: typeof protocol === 'string' ? protocol : undefined,
      origin: undefined,
      root: undefined,
    });
  }
}
