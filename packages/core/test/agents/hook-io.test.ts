import { describe, expect, it } from 'vitest';
import { agentActor } from '../../src/agents/actor.js';
import { hookBudgetMs, raceDeadline } from '../../src/agents/hooks/budget.js';
import {
  additionalContextOutput,
  normalizeHookEvent,
  parseHookPayload,
  systemMessageOutput,
} from '../../src/agents/hooks/hook-io.js';

describe("Claude Code's hook protocol", () => {
  it.each([
    ['session-start', 'SessionStart'],
    ['SessionStart', 'SessionStart'],
    ['user_prompt_submit', 'UserPromptSubmit'],
    ['precompact', 'PreCompact'],
    ['Stop', 'Stop'],
    ['PreToolUse', undefined],
    [undefined, undefined],
  ])('%j is %s', (name, event) => {
    expect(normalizeHookEvent(name)).toBe(event);
  });

  it('reads only the known fields with their types; anything else is ignored, junk is an empty payload', () => {
    expect(
      parseHookPayload(
        JSON.stringify({ cwd: '/r', prompt: 'hi', session_id: 1, stop_hook_active: true, extra: 'x', trigger: ['a'] }),
      ),
    ).toEqual({ payload: { cwd: '/r', prompt: 'hi', stop_hook_active: true } });
    expect(parseHookPayload('')).toEqual({ payload: {} });
    expect(parseHookPayload('{nope').problem).toMatch(/not JSON/);
    expect(parseHookPayload('[1]')).toEqual({ payload: {}, problem: 'the hook input is not a JSON object' });
  });

  it('context goes out as hookSpecificOutput.additionalContext; nothing to add prints nothing', () => {
    expect(JSON.parse(additionalContextOutput('UserPromptSubmit', 'ctx'))).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' },
    });
    expect(additionalContextOutput('SessionStart', ' \n')).toBe('');
    expect(JSON.parse(systemMessageOutput('hello'))).toEqual({ systemMessage: 'hello' });
  });

  it('budgets: SessionStart 500 ms, UserPromptSubmit 300 ms, the others none; AGENTM_HOOK_BUDGET_MS overrides', () => {
    expect(hookBudgetMs('SessionStart', {})).toBe(500);
    expect(hookBudgetMs('UserPromptSubmit', {})).toBe(300);
    expect(hookBudgetMs('Stop', { AGENTM_HOOK_BUDGET_MS: '9000' })).toBeUndefined();
    expect(hookBudgetMs('UserPromptSubmit', { AGENTM_HOOK_BUDGET_MS: '9000' })).toBe(9000);
    expect(hookBudgetMs('UserPromptSubmit', { AGENTM_HOOK_BUDGET_MS: 'fast' })).toBe(300);
  });

  it('a race past its deadline gives nothing, and the late failure is not an unhandled rejection', async () => {
    let fail!: (e: Error) => void;
    const late = new Promise<string>((_, reject) => (fail = reject));
    expect(await raceDeadline(late, performance.now() + 5)).toEqual({ done: false });
    fail(new Error('late'));
    expect(await raceDeadline(Promise.resolve(1), performance.now() + 1000)).toEqual({ done: true, value: 1 });
    expect(await raceDeadline(Promise.resolve(1), performance.now() - 1)).toEqual({ done: false });
  });
});

describe('agentActor', () => {
  it.each([
    ['claude-code', 'claude-code'],
    ['Claude Code', 'claude-code'],
    ['x] [cmd:: rm -rf /', 'x-cmd-rm--rf'],
    ['4242@host', '4242-host'],
    ['', 'agent'],
    [undefined, 'agent'],
    ['a'.repeat(80), 'a'.repeat(40)],
  ])('%j signs as %j (a plain token: no field can be injected)', (name, actor) => {
    expect(agentActor(name)).toBe(actor);
  });
});
