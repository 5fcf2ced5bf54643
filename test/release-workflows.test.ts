import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error -- plain ESM script of the e2e harness, no types
import { VSCE_VERSION } from './vscode/env.mjs';

/**
 * The GitHub workflows, read as GitHub reads them: what a tag runs, with which pinned actions and secrets.
 * Their steps are scripts `npm test` runs too (check:release, version.mjs --check), so what CI publishes
 * is what the tests built.
 */
const DIR = fileURLToPath(new URL('../.github/workflows/', import.meta.url));
const text = (name: string) => readFileSync(join(DIR, name), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string;
  container?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] }; pull_request?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}
const workflow = (name: string) => parse(text(name)) as Workflow;
const runs = (job: Job) =>
  job.steps
    .flatMap((s) => s.run ?? [])
    .join('\n')
    .trim();

describe('the GitHub workflows', () => {
  it('pin every action to a commit, with its exact version beside it', () => {
    const uses = readdirSync(DIR).flatMap((f) => [...text(f).matchAll(/^\s*(?:- )?uses: (.+)$/gm)].map((m) => m[1]!));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('ci: the README test command on pushes to main and pull requests', () => {
    const ci = workflow('ci.yml');
    expect(ci.on.push?.branches).toEqual(['main']);
    expect(ci.on).toHaveProperty('pull_request');
    expect(ci.permissions).toEqual({ contents: 'read' });
    expect(runs(ci.jobs['test']!)).toBe('bash .ci/run');
    // The tests run as root on Debian (the VS Code e2e installs chromium with apt), on the Node they know.
    expect(ci.jobs['test']!.container).toBe('node:20.20.2-bookworm');
    expect(workflow('release.yml').jobs['build']!.container).toBe(ci.jobs['test']!.container);
  });

  it('release: a v* tag checks the version, tests, and builds the artifacts with the script npm test runs', () => {
    const release = workflow('release.yml');
    expect(release.on.push?.tags).toEqual(['v*']);
    expect(release.permissions).toEqual({ contents: 'read' });
    const build = runs(release.jobs['build']!);
    expect(build).toContain('node scripts/version.mjs --check "$version"');
    expect(build).toContain('bash .ci/run');
    expect(build).toContain('node scripts/release/artifacts.mjs --out release');
    expect(build.indexOf('version.mjs --check')).toBeLessThan(build.indexOf('.ci/run'));
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['check:release']).toBe('node scripts/release/artifacts.mjs');
    expect(pkg.scripts['check']).toMatch(/pnpm run check:release$/);
  });

  it('release: publishes only what the build job made, each with its own secret', () => {
    const { jobs } = workflow('release.yml');
    for (const name of ['npm', 'vscode', 'github-release']) {
      expect(jobs[name]!.needs, name).toBe('build');
      expect(runs(jobs[name]!), name).not.toMatch(/pnpm|\.ci\/run|npm (install|ci|test)|esbuild/);
      expect(
        jobs[name]!.steps.some((s) => s.uses?.startsWith('actions/download-artifact@')),
        name,
      ).toBe(true);
    }
    expect(jobs['npm']!.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(runs(jobs['npm']!)).toContain(
      'npm publish "release/agentm-cli-${{ needs.build.outputs.version }}.tgz" --provenance',
    );
    expect(jobs['npm']!.steps.at(-1)!.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    const vscode = runs(jobs['vscode']!);
    expect(vscode).toContain(`npx --yes @vscode/vsce@${VSCE_VERSION as string} publish --packagePath`);
    expect(vscode).toMatch(/npx --yes ovsx@\d+\.\d+\.\d+ publish/);
    expect(jobs['vscode']!.steps.flatMap((s) => Object.keys(s.env ?? {}))).toEqual(['VSCE_PAT', 'OVSX_PAT']);
    expect(jobs['github-release']!.permissions).toEqual({ contents: 'write' });
    const github = runs(jobs['github-release']!);
    // Obsidian finds a release by the bare manifest version: tag and title are "1.2.3", not "v1.2.3".
    expect(github).toContain('gh release create "$VERSION"');
    expect(github).toContain('--title "$VERSION"');
    for (const file of ['main.js', 'manifest.json', 'styles.css']) expect(github).toContain(`release/obsidian/${file}`);
  });
});
