import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pythonJson } from '../config/python-json.js';
import { casWriteFile } from '../write-protocol/cas-write.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { ProjectBindingError, ProjectSlugError } from './errors.js';
import { isSafeSegment } from './slug.js';

/** What `bindProject` did: wrote a new file, added the key to an existing one, or found it already bound. */
export interface ProjectBinding {
  readonly outcome: 'created' | 'added' | 'unchanged';
  /** The file, `<projectRoot>/.harness/project.json`. */
  readonly file: string;
  readonly slug: string;
}

async function readIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Binds a repository to the vault project `slug` by writing `"vault_project"` into
 * `<projectRoot>/.harness/project.json`, the first signal slug resolution reads. Never loses what is
 * there: an absent file is created; an existing JSON object gains the key and keeps every other key
 * (agentm keeps `github`, `env` and its enablement block in the same file) in Python's `json.dumps`
 * format; the same binding is left untouched. Refused with `ProjectBindingError` (nothing written): a
 * file that is not a JSON object (never overwrite what we cannot read back), or one that already names
 * another project (that would move where the repository's plans and notes go) unless `force` says the
 * person means it. An unsafe slug throws `ProjectSlugError`. The write is a compare-and-swap against the
 * bytes read, so an edit made meanwhile is never overwritten. `dryRun`: every check, and the outcome,
 * without writing.
 */
export async function bindProject(
  projectRoot: string,
  slug: string,
  options: { readonly force?: boolean; readonly dryRun?: boolean } = {},
): Promise<ProjectBinding> {
  const wanted = slug.trim();
  if (!isSafeSegment(wanted)) throw new ProjectSlugError(wanted, 'the slug given to bind this folder');
  const dir = join(projectRoot, '.harness');
  const file = join(dir, 'project.json');
  const bytes = await readIfPresent(file);
  if (bytes === undefined) {
    if (!options.dryRun) {
      await mkdir(dir, { recursive: true });
      await casWriteFile(file, pythonJson({ vault_project: wanted }), { expectHash: null });
    }
    return { outcome: 'created', file, slug: wanted };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ProjectBindingError(
      file,
      `is not a JSON object, so it cannot take "vault_project" without losing its content; fix or move it aside, then bind again`,
    );
  const current = (parsed as Record<string, unknown>)['vault_project'];
  if (typeof current === 'string' && current.trim() === wanted) return { outcome: 'unchanged', file, slug: wanted };
  if (current !== undefined && !(typeof current === 'string' && current.trim() === '') && !options.force)
    throw new ProjectBindingError(
      file,
      `already binds this folder to project ${JSON.stringify(current)}; it is left as it is. Rebinding it to ` +
        `${JSON.stringify(wanted)} moves where its plans and notes go: edit "vault_project" there by hand, or run again with --force`,
    );
  if (!options.dryRun) {
    const next = { ...(parsed as Record<string, unknown>), vault_project: wanted };
    await casWriteFile(file, pythonJson(next), { expectHash: contentHash(bytes) });
  }
  return { outcome: 'added', file, slug: wanted };
}
