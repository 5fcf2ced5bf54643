import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RedactingPlanFiles } from '../../src/harness/reconciler/redacting-plan-files.js';
import { describe, expect, it } from 'vitest';
import { BackendPlanFiles } from '../../src/harness/reconciler/backend-plan-files.js';
import { LocalPlanFiles } from '../../src/harness/reconciler/local-plan-files.js';
import { planFilesFor, resolvePlanFiles } from '../../src/harness/reconciler/resolve-plan-files.js';
import { ActivePlanError } from '../../src/state/errors.js';
import { stateWorld } from '../state/helpers.js';

const PLAN = '- [ ] one [id:: one]\n';

describe('planFilesFor: where a front end finds a plan', () => {
  it('a vault-backed project gets the plan pair in the vault _harness/, through the backend', async () => {
    const w = await stateWorld({ vault: true });
    await writeFile(join(w.memoryRoot, 'desk/projects/proj/_harness/PLAN.md'), PLAN);
    const { files, name, projectRoot } = await planFilesFor(await w.resolve());
    expect((files as RedactingPlanFiles).inner).toBeInstanceOf(BackendPlanFiles);
    expect([name, projectRoot, files.planLabel]).toEqual(['PLAN', w.repo, 'desk/projects/proj/_harness/PLAN.md']);
    expect((await files.readPlan())?.text).toBe(PLAN);
  });

  it('follows the active-plan marker, and refuses a dangling one', async () => {
    const w = await stateWorld({ vault: true });
    await writeFile(join(w.memoryRoot, 'desk/projects/proj/_harness/PLAN-feature.md'), PLAN);
    await writeFile(join(w.repo, '.harness/active-plan'), 'feature\n');
    expect((await planFilesFor(await w.resolve())).name).toBe('feature');
    await writeFile(join(w.repo, '.harness/active-plan'), 'gone\n');
    await expect(planFilesFor(await w.resolve())).rejects.toThrow(ActivePlanError);
  });

  it('a local-mode project gets the repo .harness/ pair, committed under the lock in the given lock root', async () => {
    const w = await stateWorld({ vault: true });
    await writeFile(join(w.repo, '.harness/.project-mode'), 'local\n');
    await writeFile(join(w.repo, '.harness/PLAN-x.md'), PLAN);
    const lockRoot = join(w.home, 'locks');
    const { files } = await planFilesFor(await w.resolve(), 'x', { lockRoot });
    expect((files as RedactingPlanFiles).inner).toBeInstanceOf(LocalPlanFiles);
    expect(files.planLabel).toBe(join(w.repo, '.harness/PLAN-x.md'));
    const snap = await files.readPlan();
    await files.commit({ plan: { text: PLAN.replace('[ ]', '[x]'), expectHash: snap!.hash } });
    expect(await readFile(join(w.repo, '.harness/PLAN-x.md'), 'utf8')).toContain('- [x] one');
  });

  it('resolvePlanFiles resolves the project from a directory first', async () => {
    const w = await stateWorld({ vault: true });
    await mkdir(join(w.memoryRoot, 'desk/projects/proj/_harness'), { recursive: true });
    const { files } = await resolvePlanFiles({ cwd: w.repo, host: w.host, planName: 'next' });
    expect(files.planLabel).toBe('desk/projects/proj/_harness/PLAN-next.md');
    expect(await files.readPlan()).toBeUndefined();
  });
});
