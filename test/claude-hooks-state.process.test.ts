import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, hookTiming, runHook } from './helpers/claude-hooks.js';
import { runAgentm } from './helpers/cli.js';
import { fileSnapshot } from './helpers/temp.js';
import { parseProgress } from '../packages/core/src/harness/observations/progress-format.js';

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
});

const progressOf = async (name: string) => readFile(join(world.harness, `progress-${name}.md`), 'utf8').catch(() => '');

describe('PreCompact hook', () => {
  it("appends a timestamped breadcrumb to the active plan's progress log, keeping its bytes", async () => {
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'ship');
    await writeFile(join(world.harness, 'PLAN-ship.md'), '- [ ] build [id:: build]\n');
    const earlier = '# Progress: ship\r\n\r\nby hand, CRLF\r\n';
    await writeFile(join(world.harness, 'progress-ship.md'), earlier);
    const r = await runHook('pre-compact', world, await hookPayload('pre-compact', world));
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(hookTiming(r.stderr)).toMatchObject({ outcome: 'nothing to add' });
    const log = await progressOf('ship');
    expect(log.startsWith(earlier)).toBe(true);
    const [crumb] = parseProgress(log);
    expect(crumb).toMatchObject({
      kind: 'note',
      step: 'plan:ship',
      actor: 'claude-code',
      data: { event: 'pre_compact', trigger: 'auto' },
    });
    expect(crumb!.text).toMatch(/^breadcrumb: Claude Code compacted its context \(auto\) in session 3f6c1d2e-8a41/);
    expect(Math.abs(Date.parse(crumb!.time) - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('four compactions at once leave four breadcrumbs: appends go through the lock and compare-and-swap', async () => {
    await writeFile(join(world.harness, 'PLAN.md'), '- [ ] a [id:: a]\n');
    const payload = await hookPayload('pre-compact', world);
    const runs = await Promise.all([1, 2, 3, 4].map(() => runHook('pre-compact', world, payload)));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs.map((r) => r.stderr.replace(/agentm hook PreCompact: nothing to add after \d+ ms\n/, ''))).toEqual([
      '',
      '',
      '',
      '',
    ]);
    const crumbs = parseProgress(await readFile(join(world.harness, 'progress.md'), 'utf8'));
    expect(crumbs).toHaveLength(4);
  });

  it('writes nothing in a repository without AgentM state, and nothing on a dangling plan binding', async () => {
    const before = await fileSnapshot(world.home);
    const none = await runHook('pre-compact', world, await hookPayload('pre-compact', world));
    expect([none.code, none.stdout]).toEqual([0, '']);
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'gone');
    const snapshot = await fileSnapshot(world.home);
    const dangling = await runHook('pre-compact', world, await hookPayload('pre-compact', world));
    expect(dangling.code).toBe(0);
    expect(dangling.stderr).toMatch(/agentm hook PreCompact: \.harness\/active-plan .* dangling binding/);
    expect(await fileSnapshot(world.home)).toEqual(snapshot);
    expect(Object.keys(snapshot).filter((k) => !(k in before))).toEqual(['repo/.harness/active-plan']);
  });
});

describe('Stop hook: plan-done promotion and offer-save', () => {
  const DONE = '---\ngoal: ship the release\n---\n- [x] build [id:: build]\n- [x] test [id:: test]\n';
  const PROGRESS =
    '# Progress: ship\n\n' +
    '- 2026-11-26T10:00:01.000Z [kind:: tool_result] [step:: build] [attempt:: 0] [actor:: 1@h] — OPENAI_API_KEY=sk-live-0123456789abcdefghij\n' +
    '- 2026-11-26T10:00:02.000Z [kind:: decision] [step:: test] [attempt:: 0] [actor:: claude-code] — kept the retries at 3\n';
  const cursorFile = () => join(world.repo, '.harness', '.promoted-progress-cursor');
  const briefs = async () =>
    (await readdir(join(world.memoryRoot, 'desk', 'projects', 'proj', 'brief')).catch(() => [] as string[])).sort();

  async function plan(text: string, progress = PROGRESS): Promise<void> {
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'ship');
    await writeFile(join(world.harness, 'PLAN-ship.md'), text);
    await writeFile(join(world.harness, 'progress-ship.md'), progress);
  }
  const stop = async (env: NodeJS.ProcessEnv = {}) => runHook('stop', world, await hookPayload('stop', world), { env });

  it('does nothing while the plan is still moving (no note, no cursor)', async () => {
    await plan('- [x] build [id:: build]\n- [ ] test [id:: test]\n');
    const r = await stop({ HARNESS_AUTO_SAVE_MODE: 'silent' });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(await briefs()).toEqual([]);
    await expect(readFile(cursorFile(), 'utf8')).rejects.toThrow();
  });

  it('silent mode saves the new progress of a done plan as a project brief, then moves the cursor past it', async () => {
    await plan(DONE);
    const r = await stop({ HARNESS_AUTO_SAVE_MODE: 'silent' });
    expect(r.code).toBe(0);
    const [saved] = await briefs();
    expect(saved).toMatch(/^plan-ship-done-[0-9a-f]{8}\.md$/);
    expect(r.stderr).toContain(`[harness_memory] silent save: brief/${saved!.replace(/\.md$/, '')}`);
    expect(JSON.parse(r.stdout)).toEqual({
      systemMessage: `AgentM: plan ship is done; its progress was saved as desk/projects/proj/brief/${saved}.`,
    });
    const note = await readFile(join(world.memoryRoot, 'desk', 'projects', 'proj', 'brief', saved!), 'utf8');
    expect(note).toMatch(/^---\nkind: brief\nstatus: active\n/);
    expect(note).toContain('tags: [plan-done]');
    expect(note).toContain('Goal: ship the release');
    expect(note).toContain('kept the retries at 3');
    expect(note).not.toContain('sk-live'); // tool output (which can carry secrets) is never promoted
    expect(await readFile(cursorFile(), 'utf8')).toBe(`${Buffer.byteLength(PROGRESS)}\n`);
    // Nothing new since: the next stop offers nothing.
    const again = await stop({ HARNESS_AUTO_SAVE_MODE: 'silent' });
    expect([again.code, again.stdout]).toEqual([0, '']);
    expect(await briefs()).toEqual([saved]);
  });

  it('ask mode saves a fully done plan without asking (confidence 1.00 ≥ 0.80)', async () => {
    await plan(DONE);
    const r = await stop();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /\[auto-saved high-confidence\] brief\/plan-ship-done-[0-9a-f]{8} \(confidence=1\.00 ≥ threshold=0\.80\)/,
    );
    expect(await briefs()).toHaveLength(1);
  });

  it('ask mode under the threshold would prompt, but a hook stdin is not a terminal: skipped, nothing saved', async () => {
    await plan('- [x] build [id:: build]\n- [-] test [id:: test]\n- [-] docs [id:: docs]\n');
    const r = await stop();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--- offer-save preview (work → desk/projects/proj) ---');
    expect(r.stderr).toContain('confidence: 0.33 (threshold: 0.80)');
    expect(r.stderr).toMatch(/\[harness_memory\] non-TTY stdin — defaulting to SKIP for brief\/plan-ship-done-/);
    expect(JSON.parse(r.stdout).systemMessage).toMatch(/was not saved as a memory \(confidence 0\.33 is under 0\.80/);
    expect(await briefs()).toEqual([]);
    expect(await readFile(cursorFile(), 'utf8')).toBe(`${Buffer.byteLength(PROGRESS)}\n`); // offered once
  });

  it('off skips the save; a higher threshold makes ask mode skip a done plan too', async () => {
    await plan(DONE);
    const off = await stop({ HARNESS_AUTO_SAVE_MODE: 'off' });
    expect(off.stderr).toMatch(/\[harness_memory\] HARNESS_AUTO_SAVE_MODE=off — skip save: brief\/plan-ship-done-/);
    expect(await briefs()).toEqual([]);
    await writeFile(
      join(world.harness, 'progress-ship.md'),
      `${PROGRESS}- 2026-11-26T11:00:00.000Z [kind:: note] [step:: test] [attempt:: 0] [actor:: me] — one more\n`,
    );
    await writeFile(join(world.harness, 'PLAN-ship.md'), DONE.replace('- [x] test', '- [-] test'));
    const strict = await stop({ HARNESS_AUTO_SAVE_CONFIDENCE_THRESHOLD: '0.9' });
    expect(strict.stderr).toContain('confidence: 0.50 (threshold: 0.90)');
    expect(await briefs()).toEqual([]);
  });

  it('with no vault configured, a done plan promotes nothing and leaves the cursor (agentm: no vault path, no promotion)', async () => {
    await world.writeConfig({ schema_version: 2 }); // no vault: the device-local store, state in the repo's .harness/
    const local = join(world.repo, '.harness');
    await writeFile(join(local, 'active-plan'), 'ship');
    await writeFile(join(local, 'PLAN-ship.md'), DONE);
    await writeFile(join(local, 'progress-ship.md'), PROGRESS);
    const deviceLocal = join(world.home, '.agentm', 'memory');
    const before = await fileSnapshot(world.repo);
    const r = await stop({ HARNESS_AUTO_SAVE_MODE: 'silent' });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).not.toContain('save');
    await expect(readFile(cursorFile(), 'utf8')).rejects.toThrow(); // a vault configured later still gets it
    expect(await fileSnapshot(world.repo)).toEqual(before);
    await expect(readdir(deviceLocal)).rejects.toThrow(); // no brief filed in the device-local store
    // The same answer as offer-save-here, which offers nothing where there is no vault.
    const offered = await runAgentm(['offer-save-here', '--kind', 'brief', '--slug', 'x', '--cwd', world.repo], {
      home: world.home,
      cwd: world.repo,
    });
    expect([offered.code, offered.stdout]).toEqual([0, '[]\n']);
  });

  it("starts from agentm's cursor: only progress after its byte offset is promoted", async () => {
    const before =
      '- 2026-11-26T09:00:00.000Z [kind:: decision] [step:: build] [attempt:: 0] [actor:: me] — promoted earlier\n';
    const after =
      '- 2026-11-26T10:00:00.000Z [kind:: decision] [step:: test] [attempt:: 0] [actor:: me] — new since the cursor\n';
    await plan(DONE, `# Progress: ship\n\n${before}${after}`);
    await writeFile(cursorFile(), `${Buffer.byteLength(`# Progress: ship\n\n${before}`)}\n`);
    const r = await stop({ HARNESS_AUTO_SAVE_MODE: 'silent' });
    expect(r.code).toBe(0);
    const [saved] = await briefs();
    const note = await readFile(join(world.memoryRoot, 'desk', 'projects', 'proj', 'brief', saved!), 'utf8');
    expect(note).toContain('new since the cursor');
    expect(note).not.toContain('promoted earlier');
  });
});
