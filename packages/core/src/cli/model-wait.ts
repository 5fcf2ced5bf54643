import { chatProviderFrom } from '../harness/chat/env-provider.js';
import type { HarnessChatProvider } from '../harness/chat/chat-provider.js';
import { withWaitProgress } from '../harness/chat/wait-progress.js';
import type { CliContext } from './context.js';
import { cliProviders } from './memory-cli.js';

/**
 * The harness's chat provider of a CLI run (see `cliChatProvider`), showing on stderr that it waits
 * for the model: after a second, a spinner on a terminal, else a plain line every 10 s. The limit shown
 * is the smaller of the endpoint's configured timeout and the caller's per-call deadline.
 */
export async function cliChatProviderShowingWait(
  ctx: CliContext,
  prefix: string,
  perCallMs: number,
  firstAfterMs = 1000,
): Promise<HarnessChatProvider | undefined> {
  const { chatClient } = await cliProviders(ctx);
  const provider = chatProviderFrom(chatClient);
  if (!provider || !chatClient) return provider;
  const { model, baseUrl, timeoutMs } = chatClient.settings;
  return withWaitProgress(provider, {
    prefix,
    label: `the model ${model} at ${baseUrl}`,
    limitMs: Math.min(perCallMs, timeoutMs && timeoutMs > 0 ? timeoutMs : Infinity),
    tty: ctx.io.errIsTTY === true,
    write: ctx.io.err,
    firstAfterMs,
  });
}
