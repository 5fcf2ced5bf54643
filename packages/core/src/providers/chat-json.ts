import type { ChatMessage, ChatProvider } from './chat.js';
import { ProviderMalformedError, ProviderTimeoutError } from './errors.js';

/** How long a JSON completion may take unless the caller says otherwise. */
export const CHAT_JSON_TIMEOUT_MS = 60_000;

export interface ChatJsonOptions {
  /** Give up after this long with a `ProviderTimeoutError` (default: the provider's `timeoutMs`, else 60 s; 0 = none). */
  readonly timeoutMs?: number | undefined;
  /** The caller's cancellation; its reason is thrown. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * One JSON value from a chat model: the conversation is sent at temperature 0 asking for a JSON object,
 * and the answer's content is parsed (a fenced ```json block is accepted). Rejects with the provider's
 * `ProviderError`s, a `ProviderTimeoutError` past `timeoutMs` (the timeout is the abort reason, so every
 * implementation reports it the same way), or `ProviderMalformedError` when the content is empty or not JSON.
 */
export async function chatJson(
  provider: ChatProvider,
  messages: readonly ChatMessage[],
  options: ChatJsonOptions = {},
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? provider.timeoutMs ?? CHAT_JSON_TIMEOUT_MS;
  const controller = new AbortController();
  const timer =
    timeoutMs > 0
      ? setTimeout(() => controller.abort(new ProviderTimeoutError(provider.name, timeoutMs)), timeoutMs)
      : undefined;
  const outer = options.signal;
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let content: string;
  try {
    content = (await provider.chat({ messages, json: true, temperature: 0 }, controller.signal)).content;
  } catch (error) {
    // An implementation that rejects with its own error once aborted still reports the timeout as one.
    if (controller.signal.aborted && controller.signal.reason instanceof ProviderTimeoutError)
      throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
  if (content.trim() === '') throw new ProviderMalformedError(provider.name, 'the answer has no content');
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(content);
  try {
    return JSON.parse(fenced ? fenced[1]! : content) as unknown;
  } catch (error) {
    throw new ProviderMalformedError(
      provider.name,
      `the message content is not JSON (${content.length > 80 ? `${content.slice(0, 80)}…` : content})`,
      error,
    );
  }
}
