/** Errors raised by the extension itself. Each message names the thing, the reason and the fix. */
export class ExtensionError extends Error {
  override name = 'ExtensionError';
}

/** A command that needs an argument the user did not give (e.g. retry with no failed step selected). */
export class NothingToDoError extends ExtensionError {
  override name = 'NothingToDoError';
}

/**
 * A refusal the person can act on at once: its notification offers `actions` as buttons (Configure model,
 * Open plan) instead of a bare message.
 */
export class ActionableError extends ExtensionError {
  override name = 'ActionableError';
  constructor(
    message: string,
    readonly actions: readonly { readonly title: string; readonly run: () => unknown }[],
  ) {
    super(message);
  }
}

/** The message of anything thrown; AgentM errors already name the fix. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
