import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 21: the editors reach core only through its public entries (@agentm/core and the subpaths
// package.json declares); the import rule in .dependency-cruiser.cjs enforces it. A fixture editor file
// reaches past them three ways (and imports @agentm/core and each declared subpath, the right ways): exactly
// the three fail.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/import-rules/', import.meta.url));

function depcruise(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`,
        'packages',
        '--config',
        `${ROOT}.dependency-cruiser.cjs`,
        '--output-type',
        'err',
      ],
      { cwd: FIXTURE, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the import rule keeps the editors on core’s public entries', { timeout: 60_000 }, () => {
  it('refuses core/src by path, and @agentm/core/src and /dist subpaths, but not @agentm/core', async () => {
    const { code, out } = await depcruise();
    expect(code).not.toBe(0);
    const errors = out.split('\n').filter((l) => l.trim().startsWith('error '));
    expect(errors.map((l) => l.trim()).sort()).toEqual(
      [
        'error editors-import-only-declared-core-subpaths: packages/vscode-ext/src/reaches-in.ts → @agentm/core/dist/harness/plan/plan-document.js',
        'error editors-import-only-declared-core-subpaths: packages/vscode-ext/src/reaches-in.ts → @agentm/core/src/state/list-plans.js',
        'error editors-reach-core-through-its-public-entries: packages/vscode-ext/src/reaches-in.ts → packages/core/src/seam/locator.ts',
      ].sort(),
    );
  });
});
