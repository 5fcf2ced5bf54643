import { AgentMError, EXIT_USAGE } from '../seam/errors.js';

/** The family of project-routing problems. */
export class RoutingError extends AgentMError {}

/** A project slug (from `.harness/project.json` or the git remote) that is not one safe folder name. */
export class ProjectSlugError extends RoutingError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly slug: string;
  readonly source: string;
  constructor(slug: string, source: string) {
    super(
      `the project slug ${JSON.stringify(slug)} (from ${source}) is not a single safe folder name: it must be non-empty, ` +
        "not '.' or '..', and contain no '/', '\\' or NUL. Set \"vault_project\" in .harness/project.json to a plain name such as \"my-repo\".",
      { code: 'EPROJECTSLUG' },
    );
    this.slug = slug;
    this.source = source;
  }
}

/** `_meta/repos.json` exists but is not the registry format. It is never auto-repaired. */
export class RegistryFormatError extends RoutingError {
  constructor(locator: string, problem: string, cause?: unknown) {
    super(
      `the repo registry ${locator} ${problem}. It is left untouched: fix it by hand (format {"version": 1, "repos": [{"slug": …, "root_path": …}]}) or move it aside.`,
      { code: 'EREGISTRYFORMAT', cause },
    );
  }
}

/** A registry call with a bad argument (an empty slug or root). */
export class RegistryArgumentError extends RoutingError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(message: string) {
    super(message, { code: 'EREGISTRYARG' });
  }
}

/** `.harness/project.json` cannot take the binding without losing what is there: it is left as it is. */
export class ProjectBindingError extends RoutingError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file} ${problem}`, { code: 'EPROJECTBINDING' });
    this.file = file;
  }
}
