import { AgentMError, EXIT_USAGE } from '../seam/errors.js';

/**
 * Errors of the memory engine (index, recall, providers, consolidation). Callers catch by family:
 * a provider failure degrades recall to lexical; an index failure is rebuilt; a bad argument is the
 * caller's to fix.
 */
export class MemoryEngineError extends AgentMError {}

/** A caller passed a value the engine cannot use (a negative k, an unknown phase budget value, …). */
export class MemoryArgumentError extends MemoryEngineError {
  constructor(message: string, code = 'EMEMORYARG') {
    super(message, { code });
  }
}

/** A recall without words to look for (memQL's `harnessRecall.recall: text is required`). The user's to fix: exit 2. */
export class RecallTextRequiredError extends MemoryArgumentError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor() {
    super(
      'recall needs text to look for: say what you are looking for in a few words (e.g. "how we debounce file watchers"). ' +
        'For the memories of this context without a query, use session context instead (CLI: agentm recall-here; MCP: session_context).',
      'ERECALLTEXT',
    );
  }
}

/**
 * The on-disk index could not be used (missing, corrupt, written by another schema). Never surfaced
 * to users by itself: the index rebuilds from the Markdown, which is the source of truth.
 */
export class IndexUnusableError extends MemoryEngineError {
  readonly reason: 'missing' | 'corrupt' | 'outdated';
  constructor(reason: 'missing' | 'corrupt' | 'outdated', detail: string, cause?: unknown) {
    super(`the memory index is ${reason}: ${detail}; it will be rebuilt from the notes (nothing is lost)`, {
      code: 'EINDEXUNUSABLE',
      cause,
    });
    this.reason = reason;
  }
}

/** The index directory would sit inside the memory root, where sync would replicate it. */
export class IndexLocationError extends MemoryEngineError {
  constructor(indexDir: string, root: string) {
    super(
      `refusing to keep the memory index at ${indexDir}: it is inside the memory root ${root}, where sync tools would ` +
        'replicate a device-local cache. Pass an index directory outside the vault (the default is the user cache dir).',
      { code: 'EINDEXLOCATION' },
    );
  }
}
