/**
 * The workspace's consolidation, in a module of its own: loaded when a consolidation is asked for, so
 * neither opening a workspace nor a recall loads the clustering, distilling and belief store.
 */
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { NotFoundError } from '../seam/errors.js';
import { projectsSpaceRungs } from '../routing/resolve-project.js';
import {
  consolidate,
  type ConsolidationProgress,
  type ConsolidationReport,
} from '../memory/consolidation/consolidate.js';
import { noteBeliefStore } from '../memory/consolidation/note-belief-store.js';
import type { WorkspaceContext } from './context.js';

/** One project's consolidation: the belief store and watermark `agentm consolidate` uses, the workspace's providers. */
export async function consolidateIn(
  ws: WorkspaceContext,
  options: {
    project: string;
    dryRun?: boolean;
    backend?: StorageBackend;
    onProgress?: ((progress: ConsolidationProgress) => void) | undefined;
  },
): Promise<ConsolidationReport> {
  const backend = options.backend ?? ws.backend;
  const folder = await ws.projectFolder(options.project, backend);
  const [chat, embedder] = await Promise.all([ws.chat(), ws.embedder()]);
  return consolidate({
    backend,
    project: options.project,
    beliefs: noteBeliefStore(backend, {
      config: ws.config,
      vocabulary: await ws.vocabulary(),
      projectFolder: async () => folder,
    }),
    watermark: folder.child('_harness', 'consolidation.json'),
    layout: ws.layout,
    chat,
    embedder,
    dryRun: options.dryRun === true,
    onProgress: options.onProgress,
  });
}

/** Every project with a `_harness/` folder, in each projects space (the probe's rungs), each slug once, sorted. */
export async function projectsWithHarness(ws: WorkspaceContext): Promise<string[]> {
  const found = new Set<string>();
  for (const rung of projectsSpaceRungs(ws.config)) {
    let children: Locator[];
    try {
      children = await ws.backend.list(ws.backend.resolve(rung.path));
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    for (const child of children) {
      if (child.name.startsWith('.') || child.name.startsWith('_') || found.has(child.name)) continue;
      if (await ws.backend.exists(child.child('_harness'))) found.add(child.name);
    }
  }
  return [...found].sort();
}
