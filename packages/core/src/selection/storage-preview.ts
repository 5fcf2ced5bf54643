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
  /** `storage [OK] …` / `storage [WARN] …` / `storage [FAIL] <the runtime's refusal message>`. */
  readonly line: string;
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
      return {
        ...base,
        status: 'ok',
        line: `storage [OK] ${head} — registered${plan.store ? `; store ${plan.store}` : ''}`,
      };
    const kind = plan.protocol === 'vault' ? 'memory root' : 'root';
    if (!(await isWritable(plan.root))) {
      return {
        ...base,
        status: 'warn',
        line: `storage [WARN] ${head} — registered, but ${kind} ${plan.root} is not writable`,
      };
    }
    return { ...base, status: 'ok', line: `storage [OK] ${head} — registered; ${kind} ${plan.root} writable` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const protocol = (error as { protocol?: unknown }).protocol;
    return {
      status: 'fail',
      protocol: typeof protocol === 'string' ? protocol : undefined,
      origin: undefined,
      root: undefined,
      line: `storage [FAIL] ${message}`,
    };
  }
}
