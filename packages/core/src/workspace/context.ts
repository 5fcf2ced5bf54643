import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import type { ConfigData } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import type { ChatProvider } from '../providers/chat.js';
import type { EmbeddingProvider } from '../providers/embeddings.js';
import type { MemoryLayout } from '../memory/documents/layout.js';
import type { Vocabulary } from '../memory/notes/vocabulary.js';

/**
 * What the workspace's lazily loaded services (memory-services.ts, harness-services.ts) read of it. The
 * `Workspace` implements it; the services import this type, not the class, so nothing loops back.
 */
export interface WorkspaceContext {
  readonly host: HostEnv;
  readonly config: ConfigData;
  readonly backend: StorageBackend;
  readonly localRoot: string | undefined;
  readonly layout: MemoryLayout;
  readonly memorySpace: string;
  readonly lockRoot: string;
  vocabulary(): Promise<Vocabulary>;
  project(): Promise<ProjectResolution | undefined>;
  projectFolder(slug: string, backend?: StorageBackend): Promise<Locator>;
  embedder(): Promise<EmbeddingProvider | undefined>;
  chat(): Promise<ChatProvider | undefined>;
}
