import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES } from './processes.js';
import { runAgentm, type CliResult } from './cli.js';
import type { AgentmWorld } from './agentm-world.js';

export type HookFixture = 'session-start' | 'user-prompt-submit' | 'pre-compact' | 'stop';

/** A hook input from test/fixtures/claude-code, with the world's repo, home and the prompt filled in. */
export async function hookPayload(
  fixture: HookFixture,
  world: AgentmWorld,
  fill: { prompt?: string; cwd?: string } = {},
): Promise<string> {
  const text = await readFile(join(FIXTURES, 'claude-code', `${fixture}.json`), 'utf8');
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return text
    .replaceAll('__REPO__', json(fill.cwd ?? world.repo))
    .replaceAll('__HOME__', json(world.home))
    .replaceAll('__PROMPT__', json(fill.prompt ?? ''));
}

/** The hook's timing line (`AGENTM_HOOK_DEBUG=1`): what it did, after how long, and its budget. */
export function hookTiming(stderr: string): { outcome: string; elapsedMs: number; budgetMs?: number } | undefined {
  const m = / (answered|over budget|nothing to add) after (\d+) ms(?: \(budget (\d+) ms\))?/.exec(stderr);
  if (!m) return undefined;
  return { outcome: m[1]!, elapsedMs: Number(m[2]), ...(m[3] ? { budgetMs: Number(m[3]) } : {}) };
}

/**
 * Runs `agentm hook <event>` as Claude Code does: a real process, the fixture's JSON on stdin, the cwd
 * the repo. `budgetMs` raises the hook's own deadline (`AGENTM_HOOK_BUDGET_MS`) on this shared machine,
 * for tests about content; the budget tests leave it at its default.
 */
export function runHook(
  event: string,
  world: AgentmWorld,
  stdin: string,
  options: { env?: NodeJS.ProcessEnv; budgetMs?: number | undefined } = {},
): Promise<CliResult> {
  return runAgentm(['hook', event], {
    home: world.home,
    cwd: world.repo,
    stdin,
    env: {
      AGENTM_HOOK_DEBUG: '1',
      ...(options.budgetMs !== undefined ? { AGENTM_HOOK_BUDGET_MS: String(options.budgetMs) } : {}),
      ...options.env,
    },
  });
}
