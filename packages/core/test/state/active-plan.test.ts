import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActivePlanError, UnsafePlanNameError } from '../../src/state/errors.js';
import { listPlans, selectPlanFiles } from '../../src/state/list-plans.js';
import { normalizePlanName, planPair } from '../../src/state/plan-names.js';
import { resolveActivePlan } from '../../src/state/active-plan.js';
import { writeStateFile } from '../../src/state/state-files.js';
import { stateWorld } from './helpers.js';

describe('plan names', () => {
  it.each([
    ['foo', 'foo'],
    [' PLAN-foo.md ', 'foo'],
    ['PLAN-foo', 'foo'],
    ['foo.md.md', 'foo.md'],
    ['PLAN-PLAN-x', 'PLAN-x'],
    ['PLAN', undefined],
    ['PLAN.md', undefined],
    ['', undefined],
    ['Mixed.Case-1', 'Mixed.Case-1'],
  ])('%j normalizes to %j', (raw, name) => {
    expect(normalizePlanName(raw)).toBe(name);
  });

  it('pairs', () => {
    expect(planPair(undefined)).toMatchObject({ plan: 'PLAN.md', progress: 'progress.md' });
    expect(planPair('foo')).toMatchObject({ plan: 'PLAN-foo.md', progress: 'progress-foo.md', name: 'foo' });
    expect(() => planPair('..')).toThrow(UnsafePlanNameError);
  });
});

describe('resolveActivePlan', () => {
  it('an explicit name wins, without an existence check or reading the marker', async () => {
    const w = await stateWorld();
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'dangling');
    const res = await w.resolve();
    expect(await resolveActivePlan(res, 'PLAN-other.md')).toMatchObject({
      plan: 'PLAN-other.md',
      progress: 'progress-other.md',
      source: 'explicit',
    });
    expect(await resolveActivePlan(res, '')).toMatchObject({ plan: 'PLAN.md', source: 'explicit' });
  });

  it.each(['a/b', '..', 'x\\y'])('an unsafe explicit name %j is a typed error', async (name) => {
    const res = await (await stateWorld()).resolve();
    await expect(resolveActivePlan(res, name)).rejects.toBeInstanceOf(UnsafePlanNameError);
  });

  it('no marker → the singleton pair', async () => {
    expect(await resolveActivePlan(await (await stateWorld()).resolve())).toMatchObject({
      plan: 'PLAN.md',
      progress: 'progress.md',
      source: 'default',
    });
  });

  it('a marker naming a non-empty plan (read through the routed location) binds it', async () => {
    const w = await stateWorld({ vault: true });
    await writeFile(join(w.repo, '.harness', 'active-plan'), ' PLAN-feature.md\n');
    const res = await w.resolve();
    await writeStateFile(res, 'PLAN-feature.md', '- [ ] a\n');
    expect(await resolveActivePlan(res)).toMatchObject({
      plan: 'PLAN-feature.md',
      progress: 'progress-feature.md',
      source: 'marker',
    });
  });

  it.each([
    ['a dangling marker (plan missing)', 'feature', undefined, /dangling binding/],
    ['a marker whose plan is whitespace only', 'feature', '  \n\t\n', /missing or empty/],
    ['a blank marker', '   \n', undefined, /blank or names no usable plan/],
    ['a marker naming PLAN', 'PLAN.md', undefined, /blank or names no usable plan/],
    ['an unsafe marker', '../../etc', undefined, /unsafe plan/],
  ])('%s → ActivePlanError, never PLAN.md', async (_what, marker, planText, message) => {
    const w = await stateWorld();
    await writeFile(join(w.repo, '.harness', 'PLAN.md'), '- [ ] the singleton plan\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), marker);
    if (planText !== undefined) await writeFile(join(w.repo, '.harness', 'PLAN-feature.md'), planText);
    const error = await resolveActivePlan(await w.resolve()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActivePlanError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/refusing to fall back to PLAN\.md/);
  });
});

describe('listPlans', () => {
  it('PLAN.md first, then PLAN-*.md sorted; archives, temps and conflict copies excluded', () => {
    const names = [
      'PLAN-b.md',
      'progress.md',
      'PLAN.archive.20260101.md',
      'PLAN-a.md',
      'PLAN-a (conflicted copy 2026-06-01).md',
      'PLAN-a.sync-conflict-20260101-101010-ABC.md',
      'PLAN-b 2.md',
      'PLAN-API.md',
      'PLAN.md',
      'PLAN-Z.md',
      '.PLAN-a.md.123.0123456789abcdef.tmp',
      'notes.md',
    ];
    expect(selectPlanFiles(names)).toEqual(['PLAN.md', 'PLAN-API.md', 'PLAN-Z.md', 'PLAN-a.md', 'PLAN-b.md']);
  });

  it('lists the routed directory (vault) and is [] when there is none', async () => {
    const w = await stateWorld({ vault: true });
    const res = await w.resolve();
    await writeStateFile(res, 'PLAN-x.md', 'x\n');
    await writeStateFile(res, 'PLAN.md', 'p\n');
    expect(await listPlans(res)).toEqual(['PLAN.md', 'PLAN-x.md']);
    await writeFile(join(w.repo, '.harness', '.project-mode'), 'local');
    expect(await listPlans(await w.resolve())).toEqual([]);
  });
});
