/**
 * The error families of the storage seam. Callers catch by family, so the hierarchy mirrors agentm's:
 * a malformed key (caller bug) is never confused with absent data (a normal degrade).
 */

/** Exit code of a failed check: a refused selection, a lost compare-and-swap, a lock timeout, anything unexpected. */
export const EXIT_CHECK_FAILED = 1;
/** Exit code of an error the user fixes in the command or its input (validation, a bad name, a bad config value). */
export const EXIT_USAGE = 2;
/**
 * Exit code of a write that landed, followed by a failure (the lock could not be removed, the directory
 * could not be synced): the new bytes are in place, so the command must not be repeated as if nothing
 * had been written (a retried save finds its own note; a retried append writes it twice).
 */
export const EXIT_WRITE_LANDED = 3;

/**
 * Base of every error AgentM throws on purpose. `code` is stable for programs; `message` is for people;
 * `exitCode` is the command line's exit code for the family (DESIGN §12): a family of errors the user
 * fixes in their input overrides it with `EXIT_USAGE`, so no front end keeps a list of classes.
 */
export class AgentMError extends Error {
  readonly code: string;
  readonly exitCode: number = EXIT_CHECK_FAILED;
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options?.code ?? 'EAGENTM';
  }
}

/** A locator key that would leave its backend's namespace (`..`, backslash, NUL). A caller bug. */
export class InvalidLocatorError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`invalid storage locator ${JSON.stringify(key)}: ${reason}`, { code: 'EINVALIDLOCATOR' });
    this.key = key;
  }
}

/** `read`/`info` of a locator where nothing exists. Absence, not corruption. */
export class NotFoundError extends AgentMError {
  readonly locator: string;
  constructor(locator: string, detail = 'nothing is stored there') {
    super(`not found: ${locator === '' ? '(root)' : locator}: ${detail}`, { code: 'ENOENT' });
    this.locator = locator;
  }
}

/** A bad backend registration (empty or duplicate protocol name). A programming bug, surfaced at once. */
export class ProtocolError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'EPROTOCOL' });
  }
}

/** Tier roots that collide: a derived tier could overwrite the source it rebuilds from. */
export class TierLayoutError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'ETIERLAYOUT' });
  }
}

/**
 * The store's root directory existed and is gone (an unmounted drive, a moved or deleted vault): not
 * absence of one file. Nothing is written, so the old location is never re-created.
 */
export class StoreGoneError extends AgentMError {
  readonly root: string;
  constructor(root: string) {
    super(
      `the store ${root} is gone (unmounted, moved or deleted) while agentm was using it; nothing more was written ` +
        'there. Reconnect or restore it, then run the command again.',
      { code: 'ESTOREGONE' },
    );
    this.root = root;
  }
}
