import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectSlugError } from './errors.js';

/** Whether `name` is one safe path segment: non-empty, not `.`/`..`, no `/`, `\` or NUL. */
export function isSafeSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/** The repo name of a `github.repo` value (`owner/repo` → `repo`, a trailing `.git` dropped). */
export function slugFromGithubRepo(repo: string): string | undefined {
  const trimmed = repo.trim();
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1).replace(/\.git$/, '');
  return last === '' ? undefined : last;
}

/**
 * The repo name of a git remote URL: https (`https://host/owner/repo.git`), ssh
 * (`ssh://git@host/owner/repo`), scp-like (`git@host:owner/repo.git`) and file (`file:///srv/repo`) URLs
 * and plain paths. Trailing `/` and one `.git` are stripped; `:` and `\` count as separators.
 */
export function slugFromRemoteUrl(url: string): string | undefined {
  const trimmed = url.trim().replace(/[/\\]+$/, '');
  const segments = trimmed.split(/[/:\\]/);
  const last = (segments[segments.length - 1] ?? '').replace(/\.git$/, '');
  return last === '' ? undefined : last;
}

/** `git -C <root> remote get-url origin`, or undefined (no git, no repo, no origin, 10 s timeout). */
export async function gitOriginUrl(
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string | undefined> {
  // Loaded only when git is asked (a project named in .harness/project.json never is): a prompt hook
  // would otherwise load child_process, net and dgram for nothing.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', projectRoot, 'remote', 'get-url', 'origin'],
      {
        timeout: 10_000,
        env: { PATH: process.env['PATH'], ...env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv,
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? undefined : stdout.toString().trim() || undefined),
    );
  });
}

export interface ProjectSlug {
  readonly slug: string;
  /** Where it came from: `.harness/project.json vault_project`, `… github.repo` or `git remote origin`. */
  readonly source: string;
}

export interface SlugOptions {
  /** How the origin URL is read (default: `git remote get-url origin`). */
  readonly gitRemote?: (projectRoot: string) => Promise<string | undefined>;
  /** Environment for the git call. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

async function readProjectJson(projectRoot: string): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(projectRoot, '.harness', 'project.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {}; // absent or malformed project.json is no signal (agentm ignores it too)
  }
}

function checked(slug: string, source: string): ProjectSlug {
  if (!isSafeSegment(slug)) throw new ProjectSlugError(slug, source);
  return { slug, source };
}

/**
 * The project slug of a repo: `.harness/project.json` `vault_project` → its `github.repo` → the
 * `origin` remote URL. Undefined when there is no signal. A slug that is not one safe segment throws
 * `ProjectSlugError` (it would otherwise address outside the projects space).
 */
export async function readProjectSlug(
  projectRoot: string,
  options: SlugOptions = {},
): Promise<ProjectSlug | undefined> {
  const project = await readProjectJson(projectRoot);
  const explicit = project['vault_project'];
  if (typeof explicit === 'string' && explicit.trim() !== '')
    return checked(explicit.trim(), '.harness/project.json vault_project');
  const github = project['github'];
  const repo = typeof github === 'object' && github !== null ? (github as Record<string, unknown>)['repo'] : undefined;
  if (typeof repo === 'string' && repo.trim() !== '') {
    const slug = slugFromGithubRepo(repo);
    if (slug !== undefined) return checked(slug, '.harness/project.json github.repo');
  }
  const url = await (options.gitRemote ?? ((root) => gitOriginUrl(root, options.env)))(projectRoot);
  if (url === undefined) return undefined;
  const slug = slugFromRemoteUrl(url);
  return slug === undefined ? undefined : checked(slug, `git remote origin ${url}`);
}
