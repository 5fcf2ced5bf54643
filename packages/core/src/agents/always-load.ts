import type { StorageBackend } from '../seam/backend.js';
import { NotFoundError } from '../seam/errors.js';
import { isTempName } from '../write-protocol/atomic-write.js';
import { recognizeConflictName } from '../write-protocol/conflict-names.js';
import { isRecallable } from '../memory/documents/document.js';
import { noteToDocument } from '../memory/note-documents.js';
import { parseNote } from '../memory/notes/parse.js';
import { phaseBudget } from '../memory/recall/budget.js';
import { renderPhaseRecall, type PhaseCandidate } from '../memory/recall/phase-recall.js';

/**
 * The always-load notes: every recallable note in `<memory space>/_always-load/` (where agentm files
 * them, whatever their group), read through the store with the index's own note reader. No index is
 * opened: a session start must not wait for one. Temps and sync conflict copies are left out.
 */
export async function alwaysLoadNotes(backend: StorageBackend, memorySpace: string): Promise<PhaseCandidate[]> {
  const dir = backend.resolve(memorySpace, '_always-load');
  const children = await backend.list(dir);
  const names = new Set(children.map((c) => c.name));
  const notes = await Promise.all(
    children
      .filter((c) => c.name.endsWith('.md') && !c.name.startsWith('.') && !isTempName(c.name))
      .filter((c) => !recognizeConflictName(c.name, (original) => names.has(original)))
      .map(async (locator): Promise<PhaseCandidate | undefined> => {
        try {
          const info = await backend.info(locator);
          if (info.isDir) return undefined;
          const text = await backend.read(locator);
          const doc = noteToDocument(locator, text, info);
          if (!isRecallable(doc)) return undefined;
          return {
            id: doc.id,
            locator: doc.locator,
            title: doc.title,
            kind: doc.kind,
            body: parseNote(text).body,
            score: 1,
            alwaysLoad: true,
            updatedMs: doc.updatedMs,
          };
        } catch (error) {
          if (error instanceof NotFoundError) return undefined; // removed while we listed
          throw error;
        }
      }),
  );
  return notes.filter((n): n is PhaseCandidate => n !== undefined);
}

/**
 * The always-load notes rendered as phase recall's Markdown for the `setup` phase, within its budget
 * (`HARNESS_RECALL_BUDGET_SETUP`, default 4000 tokens); `""` when there are none.
 */
export async function renderAlwaysLoad(
  backend: StorageBackend,
  options: { readonly memorySpace: string; readonly project?: string | undefined; readonly env: NodeJS.ProcessEnv },
): Promise<string> {
  const candidates = await alwaysLoadNotes(backend, options.memorySpace);
  return renderPhaseRecall({
    phase: 'setup',
    project: options.project,
    candidates,
    budgetTokens: phaseBudget('setup', { env: options.env }),
  }).markdown;
}
