import { describe, expect, it } from 'vitest';
import { completion, startChatServer } from '../../../../test/helpers/chat-server.js';
import { OpenAICompatibleChat } from '../../src/providers/openai-chat.js';
import { runLlmStep } from '../../src/harness/executors/llm-executor.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { planGoal } from '../../src/harness/planner/planner.js';
import type { DispatchRequest } from '../../src/harness/reconciler/dispatcher.js';
import { KEY_HARNESS_ROLES, RolesConfigError, rolesFromConfig } from '../../src/harness/tools/roles-config.js';
import { rolePrompt, SEED_ROLES } from '../../src/harness/tools/roles.js';

const ROLES = {
  reviewer: { description: 'Reviews changes and reports problems in the code.', tools: ['read_file', 'search_text'] },
  releaser: {
    description: 'Publishes releases: tags, changelogs and packages.',
    tools: ['read_file', 'run_command'],
    keywords: ['release', 'publish', 'tag'],
  },
};

describe('planner roles from config (harness.roles)', () => {
  it('uses researcher, builder and operator when the key is absent', () => {
    expect(rolesFromConfig({})).toBe(SEED_ROLES);
  });

  it('reads a name → {description, tools} object, in order, with keywords and a prompt by default', () => {
    const roles = rolesFromConfig({ [KEY_HARNESS_ROLES]: ROLES });
    expect(roles.map((r) => [r.slug, r.name, r.tools])).toEqual([
      ['reviewer', 'Reviewer', ['read_file', 'search_text']],
      ['releaser', 'Releaser', ['read_file', 'run_command']],
    ]);
    expect(roles[0]!.keywords).toEqual(['reviewer', 'reviews', 'changes', 'reports', 'problems']);
    expect(roles[1]!.keywords).toEqual(['release', 'publish', 'tag']);
    expect(rolePrompt(roles[0]!, 'check the diff')).toContain(
      'You are a reviewer specialist: Reviews changes and reports problems in the code.\nYour goal: check the diff',
    );
  });

  it.each<[string, unknown, RegExp]>([
    [
      'an array',
      [ROLES.reviewer],
      /harness\.roles must be a JSON object of role name → \{"description", "tools"\}, got an array/,
    ],
    ['no roles', {}, /harness\.roles names no role/],
    ['a bad name', { 'Code Reviewer': ROLES.reviewer }, /a role name must match/],
    ['a role that is not an object', { reviewer: 'reads code' }, /role "reviewer" must be an object/],
    ['no description', { reviewer: { tools: ['read_file'] } }, /role "reviewer" needs a "description"/],
    [
      'no tools',
      { reviewer: { description: 'x', tools: [] } },
      /role "reviewer" needs "tools": a non-empty list of read_file, list_files, search_text, write_file, run_command/,
    ],
    [
      'an unknown tool',
      { reviewer: { description: 'x', tools: ['read_file', 'browse_web'] } },
      /role "reviewer" grants unknown tool\(s\) browse_web; the tools are read_file/,
    ],
    [
      'an unknown field',
      { reviewer: { ...ROLES.reviewer, model: 'gpt' } },
      /role "reviewer" has unknown field\(s\) model/,
    ],
  ])('refuses %s with a clear error naming the key and the fix', (_what, value, message) => {
    const read = () => rolesFromConfig({ [KEY_HARNESS_ROLES]: value });
    expect(read).toThrow(RolesConfigError);
    expect(read).toThrow(message);
    expect(read).toThrow(/agentm config set harness\.roles --json/);
  });

  it('routes planned steps to the configured roles, with and without a model', async () => {
    const roles = rolesFromConfig({ [KEY_HARNESS_ROLES]: ROLES });
    const single = await planGoal('Publish the release and tag it', 'p', { roles, now: () => new Date(0) });
    expect(single.fallbackReason).toBeDefined();
    expect(single.steps.map((s) => s.role)).toEqual(['releaser']);
    const server = await startChatServer(() => ({
      body: completion(
        JSON.stringify({
          steps: [
            { key: 'review', title: 'Review the diff', goal: 'find problems', dependsOn: [], roleHint: 'reviewer' },
            {
              key: 'ship',
              title: 'Publish the release',
              goal: 'tag and publish',
              dependsOn: ['review'],
              roleHint: 'releaser',
            },
          ],
        }),
      ),
    }));
    const draft = await planGoal('Ship 1.2', 'p', {
      roles,
      provider: new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'm' }),
      now: () => new Date(0),
    });
    expect(draft.steps.map((s) => [s.id, s.role])).toEqual([
      ['review', 'reviewer'],
      ['ship', 'releaser'],
    ]);
    const prompt = String((server.requests[0]!.body['messages'] as Array<{ content: string }>)[1]!.content);
    expect(prompt).toContain(
      'reviewer (Reviews changes and reports problems in the code.); releaser (Publishes releases: tags, changelogs and packages.)',
    );
    expect(prompt).not.toContain('researcher');
  });

  it("gives an LLM step its configured role's tools and prompt", async () => {
    const roles = rolesFromConfig({ [KEY_HARNESS_ROLES]: ROLES });
    const server = await startChatServer(() => ({ body: completion('Looks fine.') }));
    const plan = parsePlan('- [/] Review the diff [role:: reviewer]\n');
    const request: DispatchRequest = {
      plan,
      step: plan.steps[0]!,
      planName: 't',
      stepKey: 'k',
      attempt: 0,
      remaining: { toolCalls: 0, tokens: 0 },
      record: async () => undefined,
      signal: new AbortController().signal,
    };
    const outcome = await runLlmStep(request, {
      provider: new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'm' }),
      projectRoot: process.cwd(),
      roles,
    });
    expect(outcome).toMatchObject({ status: 'done', data: { role: 'reviewer' } });
    const body = server.requests[0]!.body;
    expect((body['tools'] as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual([
      'read_file',
      'search_text',
    ]);
    expect(String((body['messages'] as Array<{ content: string }>)[0]!.content)).toMatch(
      /^You are a reviewer specialist/,
    );
  });
});
