import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM script of the e2e harness, no types
import { cleanEnv } from './vscode/env.mjs';
// @ts-expect-error -- plain ESM script of the e2e harness, no types
import { npmInstall } from './vscode/setup.mjs';

const OUTER = {
  npm_config_user_agent: 'pnpm/10.34.8 npm/? node/v18.0.0 linux x64',
  npm_config_verify_deps_before_run: 'false',
  npm_lifecycle_event: 'check:vscode',
  npm_package_name: 'agentm-workspace',
  PNPM_SCRIPT_SRC_DIR: '/somewhere',
};

describe('the e2e set-up runs nested npm in a clean environment', () => {
  const saved: Record<string, string | undefined> = {};
  let dir = '';
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a postinstall that reads npm_config_user_agent sees npm, not the outer pnpm run', () => {
    for (const [k, v] of Object.entries(OUTER)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    dir = mkdtempSync(join(tmpdir(), 'agentm-npm-env-'));
    const pkg = join(dir, 'probe');
    cpSync(fileURLToPath(new URL('./fixtures/user-agent-probe', import.meta.url)), pkg, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"probe-host","private":true}\n');
    expect(() => npmInstall(dir, [`file:${pkg}`])).not.toThrow();
  }, 60_000);

  it('cleanEnv drops npm_* and pnpm_* keys and keeps the rest', () => {
    const env = cleanEnv({ ...OUTER, PATH: '/bin', HOME: '/h', NPM_CONFIG_PREFIX: '/x' }, { EXTRA: '1' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', EXTRA: '1' });
  });
});
