import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProgress } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { startChatServer } from './helpers/chat-server.js';
import { FIXTURES } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

const ENV_KEY = 'plain-env-key-7f3a9c21';
const CONFIG_KEY = 'plain-config-key-5e8d0b64';
const GITHUB = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const MINE = 'my-own-token-value-42';

async function world(config: Record<string, unknown> = {}) {
  const home = await tempDir();
  const repo = join(home, 'repo');
  await mkdir(join(repo, '.harness'), { recursive: true });
  const configFile = join(home, '.claude', '.agentm-config.json');
  await mkdir(join(home, '.claude'), { recursive: true });
  await writeFile(configFile, JSON.stringify({ 'providers.chat.api_key': CONFIG_KEY, ...config }));
  return { home, repo, configFile, harness: join(repo, '.harness') };
}

/** Every file under `dir`, concatenated: what could sync or be read later. */
async function everything(dir: string): Promise<string> {
  let out = '';
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out += await readFile(join(e.parentPath, e.name), 'utf8');
  return out;
}

describe('API keys never reach the synced files or the terminal (black box)', { timeout: 60_000 }, () => {
  it("a step's command gets no secrets, and what it prints reaches progress.md redacted", async () => {
    const w = await world({ 'harness.env_allow': ['MY_TOKEN'] });
    await writeFile(
      join(w.harness, 'PLAN-t.md'),
      `- [ ] leak [id:: s1] [cmd:: '${process.execPath}' '${FIXTURES}print-env-step.mjs' '${w.configFile}']\n`,
    );
    const run = await runAgentm(['run', '--plan', 't', '--yes'], {
      home: w.home,
      cwd: w.repo,
      env: { AGENTM_LLM_API_KEY: ENV_KEY, GITHUB_TOKEN: GITHUB, MY_TOKEN: MINE, UNRELATED_SETTING: 'x' },
    });
    expect([run.code, run.stdout], run.stderr).toEqual([0, 'plan t: done\n']);
    const progress = await readFile(join(w.harness, 'progress-t.md'), 'utf8');
    const result = parseProgress(progress).find((o) => o.kind === 'tool_result')!.text;
    // The environment: no provider key, no token, nothing outside the allow-list…
    expect(result).toContain('AGENTM_LLM_API_KEY=(unset)');
    expect(result).toContain('GITHUB_TOKEN=(unset)');
    const names = /names=(.*)/.exec(result)![1]!.split(',');
    expect(names).toContain('PATH');
    expect(names).toContain('AGENTM_STEP_KEY');
    expect(names).not.toContain('UNRELATED_SETTING');
    expect(names.filter((n) => /API_KEY|TOKEN$/.test(n))).toEqual(['MY_TOKEN']);
    // …a variable the user allow-listed by name gets through, but its value is still never logged…
    expect(result).toContain('MY_TOKEN=[REDACTED-API-KEY]');
    // …and a key the command found by itself (the config file) or printed (a key-shaped literal) is redacted.
    expect(result).toContain('configured=[REDACTED-API-KEY]');
    expect(result).toContain('literal=[REDACTED-API-KEY]');
    const all = await everything(w.harness);
    for (const secret of [ENV_KEY, CONFIG_KEY, GITHUB, MINE, 'sk-literal0123456789abcdefghijkl'])
      expect(all).not.toContain(secret);
  });

  it('a provider that echoes the key in its 401 body: the key is neither printed nor logged', async () => {
    const server = await startChatServer((_n, body) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${ENV_KEY}. Model ${String(body['model'])}.` } },
    }));
    const w = await world();
    const env = { AGENTM_LLM_BASE_URL: server.baseUrl, AGENTM_LLM_MODEL: 'm', AGENTM_LLM_API_KEY: ENV_KEY };
    const planned = await runAgentm(['plan', 'Tidy the README'], { home: w.home, cwd: w.repo, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain('HTTP 401');
    expect(planned.stderr).toContain('Incorrect API key provided: [REDACTED-API-KEY]');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${ENV_KEY}`);

    await writeFile(join(w.harness, 'PLAN-ask.md'), '- [ ] summarise the notes [id:: s1]\n');
    const ran = await runAgentm(['run', '--plan', 'ask'], { home: w.home, cwd: w.repo, env });
    expect(ran.stdout).toBe('plan ask: failed\n');
    const progress = parseProgress(await readFile(join(w.harness, 'progress-ask.md'), 'utf8'));
    expect(progress.some((o) => o.text.includes('HTTP 401'))).toBe(true);

    for (const out of [planned.stdout, planned.stderr, ran.stdout, ran.stderr, await everything(w.harness)])
      expect(out).not.toContain(ENV_KEY);
  });

  it('a configured key echoed back is redacted too (config providers.chat.api_key, not the environment)', async () => {
    const server = await startChatServer(() => ({ status: 401, body: `bad key ${CONFIG_KEY}` }));
    const w = await world({ 'providers.chat.base_url': server.baseUrl, 'providers.chat.model': 'm' });
    const planned = await runAgentm(['plan', 'Tidy the README'], { home: w.home, cwd: w.repo });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain('bad key [REDACTED-API-KEY]');
    expect(planned.stderr + (await everything(w.harness))).not.toContain(CONFIG_KEY);
  });
});
