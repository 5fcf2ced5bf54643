import { describe, expect, it } from 'vitest';
import { completion, startChatServer, type ScriptedReply } from '../../../../test/helpers/chat-server.js';
import { OpenAICompatibleChat } from '../../src/providers/openai-chat.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import {
  DecomposeValidationError,
  singleStepFallback,
  truncateText,
  validateDecompose,
  type DecomposedStep,
} from '../../src/harness/planner/dag.js';
import { parseDecomposition } from '../../src/harness/planner/decompose.js';
import { planGoal } from '../../src/harness/planner/planner.js';
import {
  agentCapabilityText,
  bestFit,
  decideDedup,
  decideRoute,
  stepCapabilityText,
  withDefaults,
  computeUpgradeGap,
  mergeCapabilities,
  composeAgent,
} from '../../src/harness/planner/role-routing.js';
import { cosine, embeddingScorer, lexicalSimilarity } from '../../src/memory/similarity.js';
import { pickSeedRole, SEED_ROLES } from '../../src/harness/tools/roles.js';

const step = (key: string, dependsOn: string[] = [], title = `do ${key}`): DecomposedStep => ({
  key,
  title,
  goal: '',
  dependsOn,
  roleHint: '',
});

describe('DAG validation', () => {
  it.each<[string, DecomposedStep[], string]>([
    ['no steps', [], 'decompose produced no steps'],
    ['empty key', [step('a'), step(' ')], 'step 1 has empty key'],
    ['duplicate key', [step('a'), step('a')], 'duplicate step key "a"'],
    ['empty title', [step('a', [], '  ')], 'step "a" has empty title'],
    ['self edge', [step('a', ['a'])], 'step "a" depends on itself'],
    ['dangling edge', [step('a', ['zz'])], 'step "a" depends on unknown key "zz"'],
    ['cycle', [step('a', ['c']), step('b', ['a']), step('c', ['b'])], 'decompose DAG has a cycle through step "a"'],
  ])('%s is refused: %s', (_n, steps, message) => {
    expect(() => validateDecompose(steps)).toThrow(DecomposeValidationError);
    expect(() => validateDecompose(steps)).toThrow(message);
  });

  it('cleans a valid DAG: trims fields, drops blank and repeated deps, keeps order', () => {
    const out = validateDecompose([
      { key: ' a ', title: ' A ', goal: ' g ', dependsOn: [], roleHint: ' builder ' },
      { ...step('b'), dependsOn: ['a', ' ', 'a'] },
    ]);
    expect(out).toEqual([
      { key: 'a', title: 'A', goal: 'g', dependsOn: [], roleHint: 'builder' },
      { key: 'b', title: 'do b', goal: '', dependsOn: ['a'], roleHint: '' },
    ]);
  });

  it.each([
    ['short', 10, 'short'],
    ['  exactly-ten  ', 11, 'exactly-ten'],
    ['abcdefghijk', 8, 'abcde...'],
    ['abcdef', 3, 'abc'],
    ['ναί ναί ναί', 8, 'να...'],
  ])('truncateText(%j, %d) → %j', (s, n, out) => {
    expect(truncateText(s, n)).toBe(out);
  });

  it('the fallback is one step s1 with the goal as its title (or "complete the goal")', () => {
    expect(singleStepFallback('  Ship it  ')).toEqual([
      { key: 's1', title: 'Ship it', goal: 'Ship it', dependsOn: [], roleHint: '' },
    ]);
    expect(singleStepFallback('')[0]!.title).toBe('complete the goal');
    expect(singleStepFallback('x'.repeat(200))[0]!.title).toBe(`${'x'.repeat(117)}...`);
  });

  it('reads a decomposition from fenced or bare JSON and refuses anything else', () => {
    expect(parseDecomposition('Sure!\n```json\n{"steps":[{"key":"s1","title":"t","dependsOn":"s0"}]}\n```')).toEqual([
      { key: 's1', title: 't', goal: '', dependsOn: ['s0'], roleHint: '' },
    ]);
    expect(() => parseDecomposition('no json here')).toThrow('did not answer with a JSON object');
    expect(() => parseDecomposition('{"plan": []}')).toThrow('no "steps" array');
    expect(() => parseDecomposition('{"steps": [1]}')).toThrow('step 0 is not an object');
  });
});

describe('routing decisions', () => {
  const fits = (...scores: number[]) => scores.map((score, i) => ({ role: `r${i}`, score }));
  it.each([
    [[], 'provision', undefined, 'no existing agents -- provisioning a new specialist'],
    [[0.9, 0.95], 'route', 'r1', 'agent r1 fits (0.95 >= route 0.82)'],
    [[0.82], 'route', 'r0', 'agent r0 fits (0.82 >= route 0.82)'],
    [[0.81, 0.6], 'upgrade', 'r0', 'agent r0 partial fit (0.81 in [0.60,0.82)) -- upgrading'],
    [[0.6], 'upgrade', 'r0', 'agent r0 partial fit (0.60 in [0.60,0.82)) -- upgrading'],
    [[0.59], 'provision', undefined, 'best fit too low (0.59 < upgrade 0.60) -- provisioning a new specialist'],
  ])('fits %j → %s %s', (scores, action, role, rationale) => {
    expect(decideRoute(fits(...scores))).toEqual({
      action,
      score: scores.length ? Math.max(...scores) : 0,
      ...(role ? { role } : {}),
      rationale,
    });
  });

  it.each([
    [[], 'keep', 'no existing agents -- keeping new agent'],
    [[0.9], 'merge', 'near-duplicate of agent r0 (0.90 >= dedup 0.90) -- merging to avoid sprawl'],
    [[0.89], 'keep', 'distinct enough from roster (best 0.89 < dedup 0.90) -- keeping new agent'],
  ])('dedup %j → %s', (scores, action, rationale) => {
    expect(decideDedup(fits(...scores))).toMatchObject({ action, rationale });
  });

  it('normalizes thresholds: out-of-range values take defaults, upgrade never exceeds route', () => {
    expect(withDefaults({ route: 0, upgrade: 2, dedup: -1 })).toEqual({ route: 0.82, upgrade: 0.6, dedup: 0.9 });
    expect(withDefaults({ route: 0.5, upgrade: 0.7 })).toEqual({ route: 0.5, upgrade: 0.5, dedup: 0.9 });
    expect(bestFit(fits(0.5, 0.5))!.role).toBe('r0');
  });

  it.each([
    ['builder', 'anything', 'builder'],
    [' OPERATOR ', 'x', 'operator'],
    ['', 'implement and refactor the code', 'builder'],
    ['', 'deploy and launch it', 'operator'],
    ['', 'summarize the findings', 'researcher'],
    ['', 'nothing matches here', 'researcher'],
    ['nonsense', 'write code', 'builder'],
  ])('pickSeedRole(%j, %j) → %s', (hint, text, slug) => {
    expect(pickSeedRole(hint, text).slug).toBe(slug);
  });

  it('builds capability texts and upgrade gaps like memQL', () => {
    expect(agentCapabilityText(' b ', 'Builds.', ['z', 'a'], ['t2', 't1'])).toBe(
      'role: b\nBuilds.\nknowledge: a, z\ntools: t1, t2',
    );
    expect(stepCapabilityText(' T ', 'T')).toBe('T');
    expect(stepCapabilityText('T', 'goal')).toBe('T\ngoal');
    expect(computeUpgradeGap(SEED_ROLES[1]!, ['workbench'], ['read_file'])).toEqual({
      addDomains: ['software-engineering'],
      addTools: ['list_files', 'search_text', 'write_file'],
    });
    expect(mergeCapabilities([' a', 'a', ''], ['b', 'a'])).toEqual(['a', 'b']);
  });

  it('lexical similarity is a deterministic cosine in [0, 1], over the analyzer recall uses', async () => {
    expect(lexicalSimilarity('write the code', 'write the code')).toBeCloseTo(1);
    expect(lexicalSimilarity('alpha beta', 'gamma delta')).toBe(0);
    expect(lexicalSimilarity('', 'x')).toBe(0);
    expect(lexicalSimilarity('alpha alpha beta', 'alpha beta beta')).toBeCloseTo(0.8);
    // One tokenizer: stop words do not make texts similar, and plurals match their singular.
    expect(lexicalSimilarity('the tests', 'test')).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2], [1])).toBe(0);
    expect(cosine([1, 1], [-1, -1])).toBeCloseTo(-1);
    const opposite = embeddingScorer({
      embed: async () => [
        [1, 1],
        [-1, -1],
      ],
    });
    expect(await opposite.scores('a', ['b'])).toEqual([0]); // scorers clamp to [0, 1]
  });
});

describe('planning a goal', () => {
  async function plan(script: (n: number) => ScriptedReply) {
    const server = await startChatServer(script);
    const provider = new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'm' });
    const draft = await planGoal('Add a --json flag to trace', 'json-flag', {
      provider,
      retry: { perCallTimeoutMs: 2000, maxAttempts: 2, baseBackoffMs: 1, maxBackoffMs: 1 },
      now: () => new Date('2026-03-01T10:00:00Z'),
    });
    return { draft, server };
  }

  it('decomposes through the model into a routed, valid DAG and renders a PLAN file that parses back', async () => {
    const steps = [
      {
        key: 's1',
        title: 'Read how trace renders today',
        goal: 'know the render path',
        dependsOn: [],
        roleHint: 'researcher',
      },
      {
        key: 'impl step',
        title: 'Implement the flag',
        goal: 'trace --json prints JSON',
        dependsOn: ['s1'],
        roleHint: '',
      },
      { key: 's3', title: 'Run the tests', goal: '', dependsOn: ['impl step'], roleHint: 'operator' },
    ];
    const { draft, server } = await plan(() => ({ body: completion(JSON.stringify({ steps })) }));
    expect(server.requests[0]!.body).toMatchObject({ response_format: { type: 'json_object' }, temperature: 0 });
    expect(draft.fallbackReason).toBeUndefined();
    expect(draft.steps.map((s) => [s.id, s.dependsOn, s.role, s.action])).toEqual([
      ['s1', [], 'researcher', 'provision'],
      ['impl-step', ['s1'], 'builder', 'provision'],
      ['s3', ['impl-step'], 'operator', 'provision'],
    ]);
    const doc = parsePlan(draft.text);
    expect(doc.problems).toEqual([]);
    expect(doc.meta).toMatchObject({ goal: 'Add a --json flag to trace', status: 'open' });
    expect(doc.steps.map((s) => [s.id, s.stored, s.deps, s.role, s.key, s.details])).toEqual(
      draft.steps.map((s) => [s.id, 'pending', s.dependsOn, s.role, s.stepKey, s.goal ? `Goal: ${s.goal}` : '']),
    );
    expect(draft.observations.map((o) => [o.kind, o.step])).toEqual([
      ['decision', 'plan:json-flag'],
      ['decision', 's1'],
      ['decision', 'impl-step'],
      ['decision', 's3'],
    ]);
    expect(draft.observations[1]!.text).toMatch(
      /^step s1: provision \(best fit too low \(0\.\d\d < upgrade 0\.60\) -- provisioning a new specialist; near-duplicate of agent researcher/,
    );
  });

  it.each([
    [
      'malformed output',
      () => ({ body: completion('I think you should first…') }),
      'the model did not answer with a JSON object',
    ],
    [
      'a cyclic DAG',
      () => ({
        body: completion(
          '{"steps":[{"key":"a","title":"A","dependsOn":["b"]},{"key":"b","title":"B","dependsOn":["a"]}]}',
        ),
      }),
      'decompose DAG has a cycle through step "a"',
    ],
    [
      'a dangling edge',
      () => ({ body: completion('{"steps":[{"key":"a","title":"A","dependsOn":["zz"]}]}') }),
      'step "a" depends on unknown key "zz"',
    ],
    ['a server error', () => ({ status: 500, body: 'boom' }), 'the model call failed: internal: provider http'],
  ])('falls back to a single step on %s, saying why', async (_n, script, reason) => {
    const { draft } = await plan(script);
    expect(draft.fallbackReason).toContain(reason);
    expect(draft.steps.map((s) => [s.id, s.title])).toEqual([['s1', 'Add a --json flag to trace']]);
    expect(draft.observations[0]).toMatchObject({ kind: 'decision', data: { choice: 'single_step_fallback' } });
    expect(parsePlan(draft.text).steps).toHaveLength(1);
  });

  it('an embeddings source overrides the lexical scorer: a close role is routed to, a middling one upgraded', async () => {
    // Vectors by text: the step is [1, 0]; builder [1, 0] (cosine 1), researcher [0.7, 0.714] (≈ 0.70), operator [0, 1].
    const source = {
      embed: async (texts: readonly string[]) =>
        texts.map((t) =>
          t.startsWith('role: builder')
            ? new Float32Array([1, 0])
            : t.startsWith('role: researcher')
              ? new Float32Array([0.7, 0.714])
              : t.startsWith('role: operator')
                ? new Float32Array([0, 1])
                : new Float32Array([1, 0]),
        ),
    };
    const routed = await planGoal('Write the parser', 'p', { scorer: embeddingScorer(source) });
    expect(routed.steps.map((s) => [s.role, s.action])).toEqual([['builder', 'route']]);
    expect(routed.observations[1]!.text).toBe('step s1: route (agent builder fits (1.00 >= route 0.82))');
    const partial = await planGoal('Write the parser', 'p', {
      scorer: embeddingScorer({
        embed: async (texts) =>
          texts.map((t) => (t.startsWith('role: researcher') ? [0.7, 0.714] : t.startsWith('role:') ? [0, 1] : [1, 0])),
      }),
    });
    expect(partial.steps.map((s) => [s.role, s.action])).toEqual([['researcher', 'upgrade']]);
    expect(partial.observations[1]!.data).toMatchObject({
      choice: 'upgrade',
      gap_tools: 'write_file',
      gap_domains: 'workbench, software-engineering',
      upgraded_domains: 'research-methods, workbench, software-engineering',
      upgraded_tools: 'read_file, list_files, search_text, write_file',
    });
    // Applied, not only logged: the step's role gains the gap in the PLAN file, and the decision says so.
    expect(partial.observations[1]!.text).toContain(
      'researcher gains domains workbench, software-engineering and tools write_file for this step',
    );
    const step = parsePlan(partial.text).steps[0]!;
    expect([step.role, step.fields['domains'], step.fields['tools']]).toEqual([
      'researcher',
      'research-methods, workbench, software-engineering',
      'read_file, list_files, search_text, write_file',
    ]);
    // A role routed to (a clear fit) gets no such fields.
    expect(parsePlan(routed.text).steps[0]!.fields['tools']).toBeUndefined();
  });

  it('without a provider plans one step and names the variables to set', async () => {
    const draft = await planGoal('Tidy the README', 'tidy');
    expect(draft.fallbackReason).toContain('AGENTM_LLM_BASE_URL');
    expect(draft.steps).toHaveLength(1);
    await expect(planGoal('   ', 'x')).rejects.toThrow('plan: empty goal');
  });
});

describe('composeAgent names a specialist as memQL does', () => {
  const researcher = SEED_ROLES.find((r) => r.slug === 'researcher')!;

  it('cuts a title longer than 48 bytes to 45, trimmed, and marks the cut with "..."', () => {
    const title = 'Investigate the intermittent failures in the nightly build';
    expect(composeAgent(researcher, title, '').name).toBe(
      'Researcher: Investigate the intermittent failures in the...',
    );
  });

  it('keeps a title of 48 bytes or fewer whole, and uses the role name alone without a title', () => {
    const title = 'x'.repeat(48);
    expect(composeAgent(researcher, `  ${title} `, '').name).toBe(`Researcher: ${title}`);
    expect(composeAgent(researcher, '  ', 'goal').name).toBe('Researcher');
  });
});
