import type { ConfigData } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import { defaultLockRoot } from '../protocol/vault-lock.js';
import type { StorageBackend } from '../seam/backend.js';
import { NotFoundError } from '../seam/errors.js';
import { parseEpisodes } from '../memory/documents/episodes.js';
import { EPISODE_KIND } from '../memory/documents/document.js';
import { MemoryIndex } from '../memory/indexing/memory-index.js';
import { defaultIndexRoot } from '../memory/indexing/location.js';
import { memoryLayoutFromConfig } from '../memory/layout-config.js';
import { memorySettingsFromConfig } from '../memory/memory-config.js';
import { noteToDocument } from '../memory/note-documents.js';
import { parseNote } from '../memory/notes/parse.js';
import { phaseRecall } from '../memory/recall/phase-recall-shell.js';

export interface EngineRecallInput {
  readonly backend: StorageBackend;
  /** The memory root on disk (names the index). */
  readonly memoryRoot: string;
  readonly config: ConfigData;
  readonly host: HostEnv;
  readonly phase: string;
  readonly project: string | undefined;
  readonly query: string | undefined;
  readonly limit: number | undefined;
  /** The built index read worker (multi-threaded first build), if the caller knows where it is. */
  readonly workerScript?: string | undefined;
}

/**
 * The body phase recall shows for a memory: a note's body as the notes module parses it (frontmatter
 * removed), an episode's full entry (re-read from its progress file), read through the backend.
 * Undefined (the index's preview is shown) when the file is gone or the episode no longer in it.
 */
export function bodyReader(
  backend: StorageBackend,
): (doc: { id: string; locator: string; kind: string }) => Promise<string | undefined> {
  const texts = new Map<string, Promise<string | undefined>>();
  const read = (key: string) => {
    let text = texts.get(key);
    if (!text) {
      text = backend.read(backend.resolve(key)).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      texts.set(key, text);
    }
    return text;
  };
  return async (doc) => {
    const text = await read(doc.locator);
    if (text === undefined) return undefined;
    if (doc.kind !== EPISODE_KIND) return parseNote(text).body;
    return parseEpisodes(text, { locator: doc.locator, owner: '', fallbackMs: 0 }).find((e) => e.id === doc.id)?.text;
  };
}

/**
 * Phase recall through the memory engine: the index of the memory root, kept in the user cache dir
 * (`<XDG_CACHE_HOME or ~/.cache>/agentm/index/…`, its lock under `…/agentm/locks`; never the vault or
 * the repo), brought up to date, then `phaseRecall` for the phase, project and query within the
 * budget, bodies read with `parseNote`. Lexical (no embedding provider, no network). Throws what the
 * index throws (the caller decides how to degrade).
 */
export async function engineRecall(input: EngineRecallInput): Promise<string> {
  const { env, home } = input.host;
  const settings = memorySettingsFromConfig(input.config);
  const index = await MemoryIndex.open({
    backend: input.backend,
    memoryRoot: input.memoryRoot,
    toDocument: noteToDocument,
    layout: memoryLayoutFromConfig(input.config),
    indexRoot: defaultIndexRoot(env as NodeJS.ProcessEnv, home),
    lockRoot: defaultLockRoot(env as NodeJS.ProcessEnv, home),
    env: env as NodeJS.ProcessEnv,
    workerScript: input.workerScript,
    maxNoteChars: settings.maxNoteChars,
  });
  await index.refresh();
  const result = await phaseRecall(index, {
    phase: input.phase,
    project: input.project,
    query: input.query,
    limit: input.limit,
    env: env as NodeJS.ProcessEnv,
    noteHalfLife: settings.noteHalfLife,
    readBody: bodyReader(input.backend),
  });
  return result.markdown;
}
