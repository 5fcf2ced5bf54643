import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { casWriteFile } from '../protocol/cas-write.js';
import { contentHash } from '../protocol/content-hash.js';
import { RoutingError } from './errors.js';
import { isSafeSegment } from './slug.js';

/** `.harness/project.json` could not be written as asked; the file is left as it was. */
export class ProjectBindingError extends RoutingError {
  constructor(message: string) {
    super(message, { code: 'EPROJECTBINDING' });
  }
}

/** What binding did: the file, and whether it was created, changed or already said so. */
export interface ProjectBinding {
  readonly file: string;
  readonly outcome: 'created' | 'updated' | 'unchanged';
}

/**
 * Binds a repository to project `slug`: `vault_project` in `<projectRoot>/.harness/project.json`, the
 * first thing `readProjectSlug` reads. The file may be someone else's too (agentm writes `github.repo`
 * there), so it is merged key-wise: every other key is kept as it was, only `vault_project` is added.
 * Refused (`ProjectBindingError`, nothing written) when the file is not a JSON object (never overwrite
 * what we cannot read back), or when it already binds another project (that would move where the
 * repository's plans and notes go: `force` says the person means it). Written atomically, as a
 * compare-and-swap on the bytes read (a concurrent editor's change is never lost). `dryRun`: every
 * check, and the outcome, without writing.
 */
export async function bindProject(
  projectRoot: string,
  slug: string,
  options: { readonly force?: boolean; readonly dryRun?: boolean } = {},
): Promise<ProjectBinding> {
  if (!isSafeSegment(slug) || slug.trim() !== slug)
    throw new ProjectBindingError(
      `the project slug ${JSON.stringify(slug)} is not a single safe folder name (no '/', '\\', NUL, '.' or '..', no surrounding spaces)`,
    );
  const dir = join(projectRoot, '.harness');
  const file = join(dir, 'project.json');
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let data: Record<string, unknown> = {};
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ProjectBindingError(
        `${file} is not valid JSON (${(error as Error).message}); it is left as it is: fix it, or move it aside and run again`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ProjectBindingError(`${file} is not a JSON object; it is left as it is: move it aside and run again`);
    data = parsed as Record<string, unknown>;
  }
  const current = data['vault_project'];
  if (current === slug) return { file, outcome: 'unchanged' };
  if (typeof current === 'string' && current.trim() !== '' && !options.force)
    throw new ProjectBindingError(
      `${file} already binds this repository to project '${current}'; rebinding it to '${slug}' moves where its plans ` +
        `and notes go. Run again with --force if that is what you want.`,
    );
  const outcome = text === undefined ? 'created' : 'updated';
  if (options.dryRun) return { file, outcome };
  const next = { ...data, vault_project: slug };
  await mkdir(dir, { recursive: true });
  await casWriteFile(file, `${JSON.stringify(next, null, 2)}\n`, {
    expectHash: text === undefined ? null : contentHash(text),
  });
  return { file, outcome };
}
