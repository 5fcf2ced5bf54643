import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from '../../../../test/helpers/agentm-world.js';
import { lockDirFor } from '../../src/write-protocol/vault-lock.js';
import { selectBackend } from '../../src/selection/select-backend.js';
import { doctorLine, worstCheck } from '../../src/workspace/doctor/check.js';
import { Workspace } from '../../src/workspace/workspace.js';

function hostOf(w: AgentmWorld, env: Record<string, string> = {}) {
  return { env: { HOME: w.home, XDG_CACHE_HOME: join(w.home, 'cache'), ...env }, home: w.home };
}

const SETTING = 'the agentm.vault.path setting';
const FIX = 'clear agentm.vault.path, or run "AgentM: Choose the vault…"';

describe("the doctor's checks are the workspace's (every front end renders them)", () => {
  it("fails loudly when an editor's own setting puts it on another memory root (and lock) than the agents'", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w)); // the agents: <vault>/Agent
    await mkdir(join(w.vault, '.obsidian'), { recursive: true });
    // The editor was pointed at the vault itself (the folder with .obsidian/), as the old button did.
    const editor = await Workspace.open({ host: hostOf(w, { MEMORY_VAULT_PATH: w.vault }), projectRoot: w.repo });
    const checks = await editor.doctor({ agents: { host: hostOf(w), override: SETTING, fix: FIX } });
    const storage = checks.find((c) => c.id === 'storage')!;
    expect(storage.status).toBe('ok');
    expect(storage.message).toContain(
      `memory root ${w.vault} writable; the memory root is set by ${SETTING}, overriding .agentm-config.json`,
    );
    const agreement = checks.find((c) => c.id === 'agreement')!;
    const locks = join(w.home, 'cache', 'agentm', 'locks');
    expect(agreement).toMatchObject({ status: 'fail', fix: FIX });
    expect(agreement.message).toContain(`this editor keeps memory in ${w.vault} (lock ${lockDirFor(w.vault, locks)})`);
    expect(agreement.message).toContain(`uses ${w.memoryRoot} (lock ${lockDirFor(w.memoryRoot, locks)})`);
    expect(worstCheck(checks)).toBe(agreement);
    expect(doctorLine(agreement)).toMatch(
      /^agreement \[FAIL\] this editor keeps memory in .* — clear agentm\.vault\.path/,
    );
  });

  it('says an editor and the agents share one memory root and lock when they do', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const editor = await Workspace.open({ host: hostOf(w), projectRoot: w.repo });
    const checks = await editor.doctor({ agents: { host: hostOf(w), override: SETTING } });
    expect(checks.find((c) => c.id === 'agreement')).toMatchObject({
      status: 'ok',
      message: expect.stringContaining(`share the memory root ${w.memoryRoot}`),
    });
    // The CLI's own doctor has nothing to compare.
    expect((await editor.doctor()).some((c) => c.id === 'agreement')).toBe(false);
  });

  it("compares a store the host brought (Obsidian's vault folder) with what the agents select", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const { backend } = await selectBackend({ host: hostOf(w, { MEMORY_VAULT_PATH: w.vault }) });
    const plugin = await Workspace.open({ host: hostOf(w), backend });
    const agreement = (await plugin.doctor({ agents: { host: hostOf(w) } })).find((c) => c.id === 'agreement')!;
    expect(agreement.status).toBe('fail');
    expect(agreement.fix).toMatch(/agentm init --vault/);
  });

  it('warns after a failed run of the active plan, naming how to see why and retry; all OK is not said', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.harness, 'PLAN-build.md'), '- [!] compile [id:: compile]\n- [-] ship [id:: ship]\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'build\n');
    const ws = await Workspace.open({ host: hostOf(w), projectRoot: w.repo });
    const plans = (await ws.doctor()).find((c) => c.id === 'plans')!;
    expect(plans).toMatchObject({ status: 'warn' });
    expect(plans.message).toContain("the active plan 'build' has 1 failed step(s)");
    expect(plans.fix).toBe('see why with: agentm trace --plan build; retry with: agentm retry --plan build');
  });

  it('fails on a dangling .harness/active-plan, with the fix', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'gone\n');
    const ws = await Workspace.open({ host: hostOf(w), projectRoot: w.repo });
    const plans = (await ws.doctor()).find((c) => c.id === 'plans')!;
    expect(plans.status).toBe('fail');
    expect(plans.message).toMatch(/binds plan "gone".*point the marker at an existing plan/);
  });

  it('hints at picking a plan when only named plans exist and none is active', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.harness, 'PLAN-a.md'), '- [ ] one [id:: one]\n');
    const ws = await Workspace.open({ host: hostOf(w), projectRoot: w.repo });
    expect((await ws.doctor()).find((c) => c.id === 'plans')).toMatchObject({
      status: 'info',
      fix: expect.stringContaining('agentm switch <name>'),
    });
  });

  it('reports a store that cannot be produced as a failed storage check, without throwing or creating it', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ ...vaultConfig(w), 'plugins.obsidian-vault.vault_path': join(w.home, 'Unmounted') });
    const checks = await Workspace.doctor({ host: hostOf(w), projectRoot: w.repo }, { roundtrip: true });
    expect(checks[0]).toMatchObject({ id: 'storage', status: 'fail' });
    expect(checks.map((c) => c.id)).not.toContain('lock');
    expect(checks.find((c) => c.id === 'roundtrip')).toMatchObject({ status: 'fail' });
  });
});
