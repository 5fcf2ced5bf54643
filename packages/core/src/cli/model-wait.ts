import type { ChatProvider } from '../providers/chat.js';
import { OpenAICompatibleChat } from '../providers/openai-chat.js';
import { withWaitProgress } from './wait-progress.js';
import type { Workspace } from '../workspace/workspace.js';
import type { CliContext } from './context.js';
import { CONTROL } from './ui/terminal.js';

/** What is waited for, as a person reads it: `the model llama3 at http://127.0.0.1:11434/v1`. */
function modelLabel(provider: ChatProvider): string {
  if (provider instanceof OpenAICompatibleChat)
    return `the model ${provider.settings.model} at ${provider.settings.baseUrl}`;
  return `the model ${provider.name}`;
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
  return withWaitProgress(provider, {
    prefix,
    label: modelLabel(provider),
    limitMs: Math.min(perCallMs, own && own > 0 ? own : Infinity),
    tty: ctx.term.err.tty,
    write: ctx.io.err,
    redraw: (frame) => ctx.term.err.frame(frame),
    clear: () => ctx.term.err.control(CONTROL.eraseLine),
    firstAfterMs,
  });
}
