import * as vscode from 'vscode';
import { ProviderError } from '@agentm/core';
import {
  type ChatMessage,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type ChatToolCall,
} from '@agentm/core/providers';

/** The Language Model API has no system role: system text goes first, as a user message. */
function toLmMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
        return vscode.LanguageModelChatMessage.User(`[system]\n${m.content}`);
      case 'user':
        return vscode.LanguageModelChatMessage.User(m.content);
      case 'assistant': {
        const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
        if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
        for (const call of m.toolCalls ?? [])
          parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, parseArguments(call.arguments)));
        return vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : m.content);
      }
      case 'tool':
        return vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(m.toolCallId, [new vscode.LanguageModelTextPart(m.content)]),
        ]);
    }
  });
}

function parseArguments(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : { value };
  } catch {
    return { raw: text };
  }
}

/** The abort's reason (a deadline's typed timeout, say), else a ProviderError saying it was cancelled. */
function cancelled(name: string, signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ProviderError(name, `request to ${name} was cancelled`);
}

/** Tokens are estimated (≈4 characters a token) when the API does not report them. */
const estimate = (text: string) => Math.ceil(text.length / 4);

/**
 * Core's `ChatProvider` over one VS Code language model (`vscode.lm`): messages and tools are mapped to
 * the API's parts, the streamed answer is collected into text and tool calls, and the abort signal
 * cancels the request. Errors keep the API's message (a `LanguageModelError` names its cause, e.g. no
 * permission), so the inner loop's classifier can read them.
 */
export class LanguageModelChatProvider implements ChatProvider {
  readonly name: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.name = `vscode.lm ${model.vendor}/${model.family}${model.version ? `@${model.version}` : ''}`;
  }

  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener('abort', onAbort);
    try {
      const messages = toLmMessages(request.messages);
      if (request.json)
        messages.push(vscode.LanguageModelChatMessage.User('Answer with one JSON object and nothing else.'));
      const options: vscode.LanguageModelChatRequestOptions = {
        justification: 'AgentM runs a step of your plan with this model.',
        ...(request.tools?.length
          ? {
              tools: request.tools.map((t) => ({
                name: t.name,
                description: t.description,
                inputSchema: t.parameters,
              })),
            }
          : {}),
      };
      const response = await this.model.sendRequest(messages, options, cancel.token);
      let content = '';
      const toolCalls: ChatToolCall[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) content += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart)
          toolCalls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
        if (signal?.aborted) break;
      }
      if (signal?.aborted) throw cancelled(this.name, signal);
      const prompt = request.messages.reduce((n, m) => n + estimate(m.content), 0);
      const completion = estimate(content) + toolCalls.reduce((n, c) => n + estimate(c.arguments), 0);
      return {
        content,
        toolCalls,
        usage: { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion },
        finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      };
    } catch (error) {
      if (signal?.aborted) throw cancelled(this.name, signal);
      // A ProviderError, so that consolidation degrades to extractive and the harness classifies it by its text.
      if (error instanceof vscode.LanguageModelError)
        throw new ProviderError(this.name, `${this.name}: ${error.message} (${error.code})`, { cause: error });
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }
}
