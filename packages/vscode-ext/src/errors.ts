/** Errors raised by the extension itself. Each message names the thing, the reason and the fix. */
export class ExtensionError extends Error {
  override name = 'ExtensionError';
}

/**
 * A command whose data source is not wired to core yet. Nothing was read or written; the message says so,
 * so the command never appears to succeed.
 */
export class FeatureUnavailableError extends ExtensionError {
  override name = 'FeatureUnavailableError';
  /** @param feature the command's title, e.g. "Run plan". */
  constructor(readonly feature: string) {
    super(
      `"${feature}" is not available in this version of the AgentM extension yet; nothing was changed. ` +
        'Update the extension when a later version brings it.',
    );
  }
}

/** A command that needs an argument the user did not give (e.g. retry with no failed step selected). */
export class NothingToDoError extends ExtensionError {
  override name = 'NothingToDoError';
}

/** The message of anything thrown; AgentM errors already name the fix. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
