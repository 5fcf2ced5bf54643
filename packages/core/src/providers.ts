/**
 * @agentm/core/providers — the one chat and one embeddings interface and the OpenAI-compatible clients,
 * for a host that brings its own model (VS Code's language models) or a test against a local server.
 */
export type {
  ChatMessage,
  ChatProvider,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  ToolDefinition,
} from './providers/chat.js';
export type { EmbeddingProvider } from './providers/embeddings.js';
export { OpenAICompatibleChat } from './providers/openai-chat.js';
export { OpenAIEmbeddings } from './providers/openai-embeddings.js';
export { ProviderConfigError } from './providers/settings.js';
