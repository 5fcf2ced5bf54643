import type { ChatProvider } from '../providers/chat.js';
import { OpenAICompatibleChat } from '../providers/openai-chat.js';
import { showWhileWaiting, withWaitProgress, type WaitProgressOptions } from './wait-progress.js';
import type { Workspace } from '../workspace/workspace.js';
import type { CliContext } from './context.js';
import { CONTROL } from './ui/terminal.js';

/** What is waited for, as a person reads it: `the model llama3 at http://127.0.0.1:11434/v1`. */
function modelLabel(provider: ChatProvider): string {
  if (provider instanceof OpenAICompatibleChat)
    return `the model ${provider.settings.model} at ${provider.settings.baseUrl}`;
  return `the model ${provider.name}`;
}

/** How a CLI command shows on stderr that it waits for `provider` (see `showWhileWaiting`). */
function waitOptions(
  ctx: CliContext,
  provider: ChatProvider,
  prefix: string,
  limitMs: number,
  firstAfterMs: number,
): WaitProgressOptions {
  return {
    prefix,
    label: modelLabel(provider),
    limitMs,
    tty: ctx.term.err.tty,
    write: ctx.io.err,
    redraw: (frame) => ctx.term.err.frame(frame),
    clear: () => ctx.term.err.control(CONTROL.eraseLine),
    firstAfterMs,
  };
}

/**
 * Runs `work`, which waits for `provider` within one total budget (`budgetMs`, every attempt included),
 * showing on stderr after a second that it waits, with the time spent so far and that budget: the
 * limit printed is the one that holds.
 */
export function cliWaitingFor<T>(
  ctx: CliContext,
  provider: ChatProvider,
  prefix: string,
  budgetMs: number,
  work: () => Promise<T>,
): Promise<T> {
  return showWhileWaiting(waitOptions(ctx, provider, prefix, budgetMs, 1000), work);
}

/**
 * The workspace's chat model for a CLI run, showing on stderr that it waits for the model: after a
 * second (`firstAfterMs`), a spinner on a terminal, else a plain line every 10 s. The limit shown is the
 * smaller of the provider's own timeout and the caller's per-call deadline. Undefined without a model.
 */
export async function cliChatShowingWait(
  ctx: CliContext,
  ws: Workspace,
  prefix: string,
  perCallMs: number,
  firstAfterMs = 1000,
): Promise<ChatProvider | undefined> {
  const provider = await ws.chat();
  if (!provider) return undefined;
  const own = provider.timeoutMs;
  return withWaitProgress(
    provider,
    waitOptions(ctx, provider, prefix, Math.min(perCallMs, own && own > 0 ? own : Infinity), firstAfterMs),
  );
}
