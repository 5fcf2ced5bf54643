import { ProviderMalformedError } from './errors.js';
import { OpenAICompatibleChatClient, type ChatClientSettings } from './chat-client.js';
import type { ChatMessage, ChatProvider } from './provider.js';

/** Memory's JSON-answering chat provider (the distiller's), over the shared `OpenAICompatibleChatClient`. */
export class OpenAIChat implements ChatProvider {
  readonly id: string;
  readonly url: string;
  readonly client: OpenAICompatibleChatClient;

  /** From endpoint settings, or over an existing client (the one the harness uses). */
  constructor(settings: ChatClientSettings | OpenAICompatibleChatClient) {
    this.client = OpenAICompatibleChatClient.of(settings);
    this.url = this.client.url;
    this.id = this.client.id;
  }

  /**
   * Sends the conversation (temperature 0, JSON response format, 60 s unless the settings say
   * otherwise) and returns the parsed JSON of the first choice's content (a fenced ```json block is
   * accepted). Throws the provider errors of `postJson`, or `ProviderMalformedError` when there is no
   * content or it is not JSON.
   */
  async completeJson(messages: readonly ChatMessage[]): Promise<unknown> {
    const answer = await this.client.complete(
      { messages, json: true, temperature: 0 },
      { timeoutMs: this.client.settings.timeoutMs ?? 60_000 },
    );
    const content = answer.content;
    if (content.trim() === '') throw new ProviderMalformedError(this.url, 'no `choices[0].message.content` string');
    const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(content);
    try {
      return JSON.parse(fenced ? fenced[1]! : content) as unknown;
    } catch (error) {
      throw new ProviderMalformedError(
        this.url,
        `the message content is not JSON (${content.length > 80 ? `${content.slice(0, 80)}…` : content})`,
        error,
      );
    }
  }
}
