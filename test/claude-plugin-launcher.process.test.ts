import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, type HookFixture } from './helpers/claude-hooks.js';
import { refusingRegistry, serveTarball } from './helpers/npm-registry.js';
import {
  fileScopedDir,
  installCli,
  packedCli,
  pathWithoutWorkspace,
  run,
  type InstalledCli,
  type PackedCli,
} from './helpers/packed-cli.js';

/**
 * The Claude Code plugin's launcher (plugins/claude-code/scripts/agentm.mjs), run the way the plugin's
 * hooks.json and .mcp.json run it, on a machine shaped like a user's: the released tarball either
 * installed with npm, installed at another version, or not installed at all, with npm's registry played
 * by a real HTTP server on 127.0.0.1 that serves that tarball (npx is the real npx).
 */
const LAUNCHER = fileURLToPath(new URL('../plugins/claude-code/scripts/agentm.mjs', import.meta.url));
// Content tests raise the hooks' own deadline: the machine is shared, and a late hook adds nothing by design.
const ROOMY = '60000';

let packed: PackedCli;
let installed: InstalledCli;
beforeAll(async () => {
  packed = await packedCli();
  const root = await fileScopedDir('agentm-launcher-');
  await mkdir(join(root, 'home'));
  installed = await installCli(packed.tarball, root, join(root, 'home'));
}, 60_000);

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  await writeFile(join(world.harness, 'PLAN.md'), '# Plan\n\n- [ ] ship the tarball [id:: ship]\n');
  await mkdir(join(world.memoryRoot, 'memory', 'fix'), { recursive: true });
  await writeFile(
    join(world.memoryRoot, 'memory', 'fix', 'offline-install.md'),
    '---\ntype: fix\nstatus: active\n---\n\n# Offline install\n\nThe packed tarball installs with npm offline.\n',
  );
});

/** The environment Claude Code gives a hook: the user's PATH (`binDir` first, if any), HOME, a registry. */
function hookEnv(binDir: string | undefined, registry: string): NodeJS.ProcessEnv {
  return {
    PATH: binDir ? `${binDir}:${pathWithoutWorkspace()}` : pathWithoutWorkspace(),
    HOME: world.home,
    XDG_CACHE_HOME: join(world.home, '.cache'),
    AGENTM_INSTALL_PREFIX: join(world.home, '.claude'),
    AGENTM_HOOK_BUDGET_MS: ROOMY,
    npm_config_registry: registry,
    // Offline, npm retries a fetch for minutes; one try says the same thing at once.
    npm_config_fetch_retries: '0',
    npm_config_update_notifier: 'false',
  };
}

async function launchHook(event: HookFixture, env: NodeJS.ProcessEnv, prompt?: string) {
  const stdin = await hookPayload(event, world, prompt === undefined ? {} : { prompt });
  return run(process.execPath, [LAUNCHER, 'hook', event], { env, cwd: world.repo, stdin });
}

interface HookOutput {
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
}
const parse = (stdout: string) => JSON.parse(stdout) as HookOutput;

/** An npm prefix whose `agentm` is another version of @agentm/cli; running it leaves a marker file. */
async function otherVersionOnPath(): Promise<{ binDir: string; marker: string }> {
  const prefix = join(world.home, 'old-prefix');
  const pkg = join(prefix, 'lib', 'node_modules', '@agentm', 'cli');
  const marker = join(world.home, 'old-agentm-ran');
  await mkdir(join(pkg, 'bin'), { recursive: true });
  await mkdir(join(prefix, 'bin'));
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@agentm/cli', version: '0.0.1', type: 'module', bin: { agentm: 'bin/agentm.js' } }),
  );
  await writeFile(
    join(pkg, 'bin', 'agentm.js'),
    `#!/usr/bin/env node\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`,
    { mode: 0o755 },
  );
  await symlink(join(pkg, 'bin', 'agentm.js'), join(prefix, 'bin', 'agentm'));
  return { binDir: join(prefix, 'bin'), marker };
}

describe('the Claude Code plugin runs the AgentM version it was released with', () => {
  it('with that version installed, a hook runs it in the launcher: the same answer as agentm, no npm', async () => {
    const registry = await serveTarball(packed.tarball, packed.manifest);
    const env = hookEnv(installed.binDir, registry.url);
    const launched = await launchHook('session-start', env);
    const direct = await run(installed.bin, ['hook', 'session-start'], {
      env,
      cwd: world.repo,
      stdin: await hookPayload('session-start', world),
    });
    expect(launched.code, launched.stderr).toBe(0);
    expect(launched.stdout).toBe(direct.stdout);
    expect(parse(launched.stdout).hookSpecificOutput?.additionalContext).toContain('## AgentM plan state · proj');
    expect(parse(launched.stdout).systemMessage).toBeUndefined();
    expect(registry.requests).toEqual([]);
  });

  it('another version on PATH is not run: npx runs the plugin version, and SessionStart says how to install it', async () => {
    const registry = await serveTarball(packed.tarball, packed.manifest);
    const old = await otherVersionOnPath();
    const r = await launchHook('session-start', hookEnv(old.binDir, registry.url));
    expect(r.code, r.stderr).toBe(0);
    const out = parse(r.stdout);
    expect(out.hookSpecificOutput?.additionalContext).toContain('## AgentM plan state · proj');
    expect(out.systemMessage).toContain(`npm install -g @agentm/cli@${packed.manifest.version}`);
    expect(existsSync(old.marker)).toBe(false);
    expect(registry.requests).toContain('/@agentm/cli');
  });

  it('without agentm, npx fetches the package once; the prompt hook recalls through it, later offline too', async () => {
    const registry = await serveTarball(packed.tarball, packed.manifest);
    const env = hookEnv(undefined, registry.url);
    const note = 'The packed tarball installs with npm offline.';
    const r = await launchHook('user-prompt-submit', env, 'how do I install the tarball offline?');
    expect(r.code, r.stderr).toBe(0);
    expect(parse(r.stdout).hookSpecificOutput?.additionalContext).toContain(note);
    expect(registry.requests.filter((p) => p.endsWith('.tgz'))).toHaveLength(1);
    // Later runs ask the registry nothing (an exact version never changes): no npm round trip per hook, and
    // offline they do not wait for npm's retries (over a minute) before using the cache.
    const asked = registry.requests.length;
    const again = await launchHook('user-prompt-submit', env, 'the tarball offline');
    expect(again.code, again.stderr).toBe(0);
    expect(registry.requests).toHaveLength(asked);
    await registry.close();
    const offline = await launchHook('user-prompt-submit', env, 'install the tarball offline');
    expect(offline.code, offline.stderr).toBe(0);
    expect(parse(offline.stdout).hookSpecificOutput?.additionalContext).toContain(note);
  });

  it('without agentm and without a registry, SessionStart names the one command that fixes it; hooks still exit 0', async () => {
    const env = hookEnv(undefined, await refusingRegistry());
    const start = await launchHook('session-start', env);
    expect(start.code).toBe(0);
    const fix = `npm install -g @agentm/cli@${packed.manifest.version}`;
    expect(parse(start.stdout).systemMessage).toBe(
      `AgentM is not running: npx could not run @agentm/cli@${packed.manifest.version} (exit 1). Install it once with: ${fix}`,
    );
    expect(parse(start.stdout).hookSpecificOutput).toMatchObject({ hookEventName: 'SessionStart' });
    expect(parse(start.stdout).hookSpecificOutput?.additionalContext).toContain(fix);
    const prompt = await launchHook('user-prompt-submit', env, 'anything');
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toBe('');
    expect(prompt.stderr).toContain(fix);
  });

  it('`mcp` without agentm on PATH: the MCP SDK client talks to the plugin version npx started', async () => {
    const registry = await serveTarball(packed.tarball, packed.manifest);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LAUNCHER, 'mcp'],
      cwd: world.repo,
      env: hookEnv(undefined, registry.url) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'launcher-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'agentm', version: packed.manifest.version });
      const plan = await client.callTool({ name: 'read_plan', arguments: {} });
      expect(JSON.stringify(plan.content)).toContain('ship the tarball');
    } finally {
      await client.close();
    }
  });
});
