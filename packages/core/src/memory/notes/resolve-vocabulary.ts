import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ConfigData } from '../../config/config-file.js';
import { envValue, type HostEnv } from '../../config/host.js';
import { memoryRoot as agentmMemoryRoot } from '../../config/roots.js';
import { StorageRulesError } from './errors.js';
import { parseStorageRules } from './storage-rules.js';
import { applyVocabularyConfig, DEFAULT_VOCABULARY, type Vocabulary } from './vocabulary.js';

/** `source` of the shipped register. */
export const SHIPPED_RULES_SOURCE = '<shipped default>';

export interface VocabularyContext {
  /** The environment (`AGENTM_STORAGE_RULES`, and `MEMORY_VAULT_PATH` when `memoryRoot` is not given). */
  readonly host: HostEnv;
  /** agentm's config: `memory.vocabulary` overrides the rules. */
  readonly config: ConfigData;
  /**
   * The memory root whose `standards/` folders are probed (absolute). Left out: agentm's memory root
   * (`MEMORY_VAULT_PATH`, else the configured vault and `memory_root`); given as undefined: none.
   */
  readonly memoryRoot?: string | undefined;
}

/** A vocabulary and the rules file it came from (a path, or `<shipped default>`). */
export interface ResolvedVocabulary extends Vocabulary {
  readonly source: string;
}

/** The file's text, or undefined when there is no file there (absence falls through; anything else is an error). */
async function readRules(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new StorageRulesError(path, `the rules file cannot be read (${code ?? (error as Error).message})`, error);
  }
}

/**
 * The filing vocabulary every front end files by, resolved as agentm resolves its rules — the first
 * file that exists wins: `$AGENTM_STORAGE_RULES` → `<memory root>/standards/storage-rules.md` →
 * `<memory root>/../standards/storage-rules.md` (a vault whose memory lives in `Agent/`) → the shipped
 * default (`DEFAULT_VOCABULARY`) — then config `memory.vocabulary` on top. A rules file that exists but
 * cannot be read or parsed throws `StorageRulesError` naming it: never a silent fall-back.
 */
export async function resolveVocabulary(context: VocabularyContext): Promise<ResolvedVocabulary> {
  const candidates: string[] = [];
  const explicit = envValue(context.host, 'AGENTM_STORAGE_RULES');
  if (explicit !== undefined) candidates.push(resolve(explicit));
  const root = 'memoryRoot' in context ? context.memoryRoot : await agentmMemoryRoot(context.host, context.config);
  if (root !== undefined && root !== '')
    candidates.push(join(root, 'standards', 'storage-rules.md'), join(root, '..', 'standards', 'storage-rules.md'));
  for (const path of candidates) {
    const text = await readRules(path);
    if (text === undefined) continue;
    return { ...applyVocabularyConfig(parseStorageRules(text, path), context.config), source: path };
  }
  return { ...applyVocabularyConfig(DEFAULT_VOCABULARY, context.config), source: SHIPPED_RULES_SOURCE };
}
