import { ProviderMalformedError } from '../errors.js';
import { endpointUrl, postJson } from './http-json.js';
import type { OpenAIEndpointSettings } from './openai-embeddings.js';
import type { ChatMessage, ChatProvider } from './provider.js';

/** An OpenAI-compatible `/v1/chat/completions` client that asks for, and parses, a JSON answer. */
export class OpenAIChat implements ChatProvider {
  readonly id: string;
  readonly url: string;

  constructor(private readonly settings: OpenAIEndpointSettings) {
    this.url = endpointUrl(settings.baseUrl, 'chat/completions');
    this.id = `${settings.model}@${this.url}`;
  }

  /**
   * Sends the conversation (temperature 0, JSON response format) and returns the parsed JSON of the
   * first choice's content (a fenced ```json block is accepted). Throws the provider errors of
   * `postJson`, or `ProviderMalformedError` when there is no content or it is not JSON.
   */
  async completeJson(messages: readonly ChatMessage[]): Promise<unknown> {
    const answer = await postJson(
      this.url,
      { model: this.settings.model, messages, temperature: 0, response_format: { type: 'json_object' } },
      { apiKey: this.settings.apiKey, timeoutMs: this.settings.timeoutMs ?? 60_000 },
    );
    const content = (answer as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ProviderMalformedError(this.url, 'no `choices[0].message.content` string');
    const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(content);
    try {
      return JSON.parse(fenced ? fenced[1]! : content) as unknown;
    } catch (error) {
      throw new ProviderMalformedError(this.url, `the message content is not JSON (${content.length > 80 ? `${content.slice(0, 80)}…` : content})`, error);
    }
  }
}
