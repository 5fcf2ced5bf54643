import { AgentMError } from '../seam/errors.js';
import { CAPABILITY_SNAKE_NAMES, type CapabilityFlag } from '../seam/capabilities.js';

/** Why selection refused. Programs branch on it; people read the message. */
export type SelectionRefusal = 'corrupt-config' | 'unregistered' | 'no-vault-path' | 'capability-mismatch';

/**
 * The configured backend cannot be produced. Selection never demotes to another store: a silent
 * fall-back to device-local is the one failure that mis-writes or orphans a vault.
 */
export class StorageSelectionError extends AgentMError {
  readonly reason: SelectionRefusal;
  /** The protocol selection was trying to produce, when it got that far. */
  readonly protocol: string | undefined;
  constructor(reason: SelectionRefusal, protocol: string | undefined, message: string, cause?: unknown) {
    super(message, { code: 'ESTORAGESELECTION', cause });
    this.reason = reason;
    this.protocol = protocol;
  }
}

/** The selected backend lacks capabilities the caller required. */
export class CapabilityMismatchError extends StorageSelectionError {
  /** Every missing flag, in canonical order. */
  readonly missing: readonly CapabilityFlag[];
  constructor(protocol: string, missing: readonly CapabilityFlag[]) {
    super(
      'capability-mismatch',
      protocol,
      `backend '${protocol}' does not satisfy required capabilities: ${missing.map((f) => CAPABILITY_SNAKE_NAMES[f]).join(', ')}. ` +
        'Select a backend that offers them (agentm config set storage.backend <name>) or drop the requirement.',
    );
    this.missing = missing;
  }
}
