import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/seam/errors.js';
import {
  ProviderError,
  ProviderHttpError,
  ProviderMalformedError,
  ProviderTimeoutError,
  ProviderUnreachableError,
} from '../../src/providers/errors.js';
import {
  budgetExceeded,
  estimateTokens,
  planContextTrim,
  trimWindow,
} from '../../src/harness/inner-loop/context-trim.js';
import { idempotencyKeyFor } from '../../src/harness/inner-loop/idempotency.js';
import { callSignature, canonicalArgs, LoopDetector } from '../../src/harness/inner-loop/loop-detector.js';
import { backoffMs, DEFAULT_RETRY_POLICY, executeWithRetry } from '../../src/harness/inner-loop/retry.js';
import { plannerRetry } from '../../src/harness/planner/decompose.js';
import {
  classifyToolError,
  isContextOverflow,
  structuredToolError,
  ToolError,
  toolErrorJson,
  toolErrorString,
} from '../../src/harness/tools/tool-errors.js';
import { scopeToolNames } from '../../src/harness/inner-loop/tool-scope.js';

describe('tool error classification (ordered substring buckets)', () => {
  it.each([
    ['Additional property foo is not allowed', 'validation'],
    ['missing required field "path"', 'validation'],
    ['value must be one of a, b', 'validation'],
    ['not allowed: writes', 'validation'],
    ['Permission denied: /etc', 'permission'],
    ['tool is not allowed for this agent', 'permission'],
    ['path is out of scope', 'permission'],
    ['file not found', 'not_found'],
    ['unknown tool "zap"', 'not_found'],
    ['does not exist', 'not_found'],
    ['request timed out', 'timeout'],
    ['context deadline exceeded', 'timeout'],
    ['upstream 503', 'unavailable'],
    ['Rate limit reached', 'unavailable'],
    ['connection reset by peer', 'unavailable'],
    ['model overloaded', 'unavailable'],
    ['segfault', 'internal'],
    // Order matters: validation is checked before not_found and timeout.
    ['validation failed: field not found', 'validation'],
    ['not found after timeout', 'not_found'],
  ])('%j → %s', (message, type) => {
    const e = classifyToolError(new Error(message))!;
    expect(e.type).toBe(type);
    expect(e.message).toBe(message);
  });

  it('a ToolError keeps its type and own message; AgentM error codes map without reading the text', () => {
    expect(
      classifyToolError(new Error('wrapper says timeout', { cause: new ToolError('permission', 'no') })),
    ).toMatchObject({ type: 'permission', message: 'no' });
    expect(classifyToolError(new NotFoundError('a.md'))!.type).toBe('not_found');
    expect(classifyToolError(null)).toBeNull();
    expect(classifyToolError('plain string timeout')!.type).toBe('timeout');
  });

  // A provider's message names its endpoint and quotes what it answered: a port such as :45030 reads as
  // "503", a body as anything. What happened (the status, the kind of failure) decides, never that text.
  const endpoint = 'http://127.0.0.1:45030/v1/not-found/validation';
  it.each([
    ['malformed', new ProviderMalformedError(endpoint, 'the body is not JSON (<html>)'), 'internal'],
    ['timeout', new ProviderTimeoutError(endpoint, 2000), 'timeout'],
    [
      'unreachable',
      new ProviderUnreachableError(endpoint, Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
      'unavailable',
    ],
    ['HTTP 400', new ProviderHttpError(endpoint, 400, 'rate limit on this key'), 'validation'],
    ['HTTP 401', new ProviderHttpError(endpoint, 401, 'model overloaded'), 'permission'],
    ['HTTP 404', new ProviderHttpError(endpoint, 404, 'permission denied'), 'not_found'],
    ['HTTP 429', new ProviderHttpError(endpoint, 429, 'not found'), 'unavailable'],
    ['HTTP 500', new ProviderHttpError(endpoint, 500, 'request timed out'), 'internal'],
    ['HTTP 504', new ProviderHttpError(endpoint, 504, ''), 'timeout'],
    ['HTTP 529', new ProviderHttpError(endpoint, 529, 'validation'), 'unavailable'],
  ] as const)('a provider failure (%s) → %s, whatever its URL and body say', (_, error, type) => {
    expect(classifyToolError(error)).toMatchObject({ type, message: error.message });
  });

  it('a provider failure of no known kind is read by its text, as any error is', () => {
    expect(classifyToolError(new ProviderError('copilot', 'copilot: the model was not found (NotFound)'))!.type).toBe(
      'not_found',
    );
  });

  it.each([
    ['validation', true, false],
    ['not_found', true, false],
    ['permission', false, false],
    ['timeout', false, true],
    ['unavailable', false, true],
    ['internal', false, true],
  ] as const)('%s: userFixable %s, retryable %s', (type, fixable, retryable) => {
    expect(structuredToolError(type, 'm')).toMatchObject({ userFixable: fixable, retryable, attempts: 1 });
  });

  it('renders JSON in the fixed key order, omitting zero attempts and empty details', () => {
    expect(toolErrorJson(structuredToolError('timeout', 'slow', 3, { ms: 5 }))).toBe(
      '{"type":"timeout","message":"slow","retryable":true,"userFixable":false,"attempts":3,"details":{"ms":5}}',
    );
    expect(toolErrorJson({ ...structuredToolError('validation', 'bad'), attempts: 0 })).toBe(
      '{"type":"validation","message":"bad","retryable":false,"userFixable":true}',
    );
    expect(toolErrorJson(null)).toBe('{"type":"internal","message":"nil error","retryable":false,"userFixable":false}');
    expect(toolErrorString(structuredToolError('not_found', 'x'))).toBe('not_found: x');
  });

  it.each([
    ['This model maximum context length is 4096 tokens', true],
    ['error: context_length_exceeded', true],
    ['prompt is too long', true],
    ['rate limit', false],
  ])('context overflow %j → %s', (m, yes) => {
    expect(isContextOverflow(new Error(m))).toBe(yes);
  });
});

describe('retry with backoff', () => {
  it('waits 0, 250, 500, 1000, 2000, 4000, 4000, 4000 ms before attempts 1..8', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(DEFAULT_RETRY_POLICY, n))).toEqual([
      0, 250, 500, 1000, 2000, 4000, 4000, 4000,
    ]);
    expect(backoffMs({ baseBackoffMs: 0, maxBackoffMs: 10 }, 5)).toBe(0);
    expect(backoffMs({ baseBackoffMs: 100, maxBackoffMs: 0 }, 4)).toBe(400);
    expect(backoffMs(DEFAULT_RETRY_POLICY, 1000)).toBe(4000);
  });

  const fast = { perCallTimeoutMs: 0, maxAttempts: 3, baseBackoffMs: 1, maxBackoffMs: 2 };

  it('retries only retryable errors, up to the attempt limit, and reports the attempts', async () => {
    let calls = 0;
    const unavailable = await executeWithRetry(async () => {
      calls++;
      throw new Error('503 service unavailable');
    }, fast);
    expect([unavailable.ok, unavailable.attempts, calls]).toEqual([false, 3, 3]);
    expect(!unavailable.ok && unavailable.error).toMatchObject({ type: 'unavailable', attempts: 3 });

    calls = 0;
    const invalid = await executeWithRetry(async () => {
      calls++;
      throw new Error('missing required field "x"');
    }, fast);
    expect([invalid.ok, invalid.attempts, calls]).toEqual([false, 1, 1]);

    calls = 0;
    const flaky = await executeWithRetry(async () => {
      if (++calls < 3) throw new Error('connection reset');
      return 'fine';
    }, fast);
    expect(flaky).toEqual({ ok: true, value: 'fine', attempts: 3 });
  });

  it('a per-call deadline surfaces as a retryable timeout and aborts the call', async () => {
    let aborted = 0;
    const result = await executeWithRetry(
      (signal) =>
        new Promise<string>((_, reject) => {
          signal.addEventListener('abort', () => (aborted++, reject(new Error('aborted'))));
        }),
      { ...fast, perCallTimeoutMs: 5, maxAttempts: 2 },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.type).toBe('timeout');
    expect([result.attempts, aborted]).toEqual([2, 2]);
  });

  it('a total budget bounds every attempt together: a call that never answers is asked once, not per attempt', async () => {
    let calls = 0;
    const hung = await executeWithRetry(
      (signal) =>
        new Promise<string>((_, reject) => {
          calls++;
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
      { ...fast, perCallTimeoutMs: 20, maxAttempts: 3, totalBudgetMs: 20 },
    );
    expect(!hung.ok && hung.error.type).toBe('timeout');
    expect([hung.attempts, calls]).toEqual([1, 1]);

    calls = 0; // quick failures still get their retries within the budget
    const flaky = await executeWithRetry(
      async () => {
        if (++calls < 2) throw new Error('503 service unavailable');
        return 'fine';
      },
      { ...fast, totalBudgetMs: 30_000 },
    );
    expect(flaky).toEqual({ ok: true, value: 'fine', attempts: 2 });
  });

  it("the planner's budget is the provider's own timeout, else 60 s, shared by its two attempts", () => {
    expect(plannerRetry()).toMatchObject({ totalBudgetMs: 60_000, perCallTimeoutMs: 60_000, maxAttempts: 2 });
    expect(plannerRetry({ timeoutMs: 2500 })).toMatchObject({ totalBudgetMs: 2500, perCallTimeoutMs: 2500 });
    expect(plannerRetry({ timeoutMs: 0 })).toMatchObject({ totalBudgetMs: 60_000 });
  });
});

describe('loop detection', () => {
  it.each([
    ['{"b":1,"a":[2,{"d":null,"c":"x"}]}', '{"a":[2,{"c":"x","d":null}],"b":1}'],
    ['  {"a": 1.0, "b": 1e21, "c": 1e-7}  ', '{"a":1,"b":1e+21,"c":1e-7}'],
    ['{"h":"<a href=\\"x\\">&</a>\\u2028"}', '{"h":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e\\u2028"}'],
    ['{"c":"\\b\\f\\n\\t\\u0001"}', '{"c":"\\u0008\\u000c\\n\\t\\u0001"}'],
    ['not json {', 'not json {'],
    ['', ''],
    ['null', 'null'],
    ['{}', '{}'],
  ])('canonical args of %j are %j', (raw, canonical) => {
    expect(canonicalArgs(raw)).toBe(canonical);
  });

  it('sorts object keys by UTF-8 byte order', () => {
    expect(canonicalArgs('{"😀":1,"ｚ":2}')).toBe('{"ｚ":2,"😀":1}');
  });

  const run = (sigs: string[], threshold?: number) => {
    const d = new LoopDetector(threshold);
    return sigs.map((s) => d.observe(s));
  };
  it.each([
    ['3 in a row trips', ['a', 'a', 'a'], [false, false, true]],
    ['a break resets the streak', ['a', 'a', 'b', 'a', 'a'], [false, false, false, false, false]],
    [
      'A/B thrashing trips on the 5th total of one call',
      ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a'],
      [false, false, false, false, false, false, false, false, true],
    ],
  ])('%s', (_n, sigs, trips) => {
    expect(run(sigs)).toEqual(trips);
  });

  it('a custom threshold applies to streaks; non-positive means 3', () => {
    expect(run(['a', 'a'], 2)).toEqual([false, true]);
    expect(run(['a', 'a', 'a'], 0)).toEqual([false, false, true]);
  });

  it('argument key order does not change a signature; {} and "" differ', () => {
    expect(callSignature(' read ', '{"b":1,"a":2}')).toBe(callSignature('read', '{"a":2,"b":1}'));
    expect(callSignature('t', '{}')).not.toBe(callSignature('t', ''));
  });
});

describe('idempotency keys', () => {
  it('are hex of the first 16 bytes of sha256(step key, NUL, tool, NUL, canonical args)', () => {
    const expected = createHash('sha256')
      .update('step-k\u0000read_file\u0000{"path":"a","x":1}')
      .digest('hex')
      .slice(0, 32);
    expect(idempotencyKeyFor(' step-k ', 'read_file', '{"x":1, "path":"a"}')).toBe(expected);
    expect(idempotencyKeyFor('', 't', '')).toBe(
      createHash('sha256').update('\u0000t\u0000').digest('hex').slice(0, 32),
    );
    expect(idempotencyKeyFor('a', 't', '{}')).not.toBe(idempotencyKeyFor('b', 't', '{}'));
  });
});

describe('context trimming', () => {
  it('estimates ≈4 bytes per token', () => {
    expect([estimateTokens(''), estimateTokens('abcd'), estimateTokens('abcde'), estimateTokens('é', 1)]).toEqual([
      0, 1, 2, 2,
    ]);
    expect([
      budgetExceeded(0, ['x'.repeat(100)]),
      budgetExceeded(2, ['abcd', 'abcd']),
      budgetExceeded(2, ['abcd', 'abcde']),
    ]).toEqual([false, false, true]);
  });

  it.each([
    ['within budget', [10, 10, 10], 30, 1, 1, 0],
    ['no budget', [10, 10], 0, 1, 1, 0],
    ['drops oldest candidates until under', [5, 10, 10, 10, 5], 21, 1, 1, 2],
    ['stops when candidates run out', [50, 10, 10, 50], 20, 1, 1, 2],
    ['no candidates between head and tail', [50, 50, 50], 10, 1, 2, 0],
    ['negative head/tail read as 0', [10, 10, 10], 15, -1, -1, 2],
  ])('%s', (_n, sizes, max, head, tail, drop) => {
    expect(planContextTrim(sizes, max, head, tail).dropCount).toBe(drop);
  });

  it('names the drop in its summary', () => {
    expect(planContextTrim([5, 10, 10, 10, 5], 21, 1, 1).summary).toBe(
      '[context trimmed: 2 earlier turn(s) summarized to stay within the 21-token window]',
    );
  });

  it('keeps the first message and the last six, and never orphans a tool result', () => {
    const m = (role: string, n: number) => ({ role, content: 'x'.repeat(n * 4) });
    const messages = [
      m('system', 1),
      m('user', 10),
      m('assistant', 10),
      m('tool', 10),
      m('assistant', 1),
      m('tool', 1),
      m('assistant', 1),
      m('tool', 1),
      m('user', 1),
      m('assistant', 1),
    ];
    const { window, dropped } = trimWindow(messages, 12, (summary) => ({ role: 'system', content: summary }));
    expect(dropped).toBe(3);
    expect(window.map((x) => x.role)).toEqual([
      'system',
      'system',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    // Dropping 2 would start the kept window at a tool result: it drops one fewer instead.
    const orphan = [
      m('system', 1),
      m('user', 10),
      m('assistant', 10),
      m('tool', 1),
      m('user', 1),
      m('assistant', 1),
      m('user', 1),
      m('assistant', 1),
      m('user', 1),
    ];
    const t = trimWindow(orphan, 8, (summary) => ({ role: 'system', content: summary }));
    expect(t.window.map((x) => x.role).slice(0, 3)).toEqual(['system', 'system', 'assistant']);
  });
});

describe('tool scoping', () => {
  it.each([
    [['a', 'b', ' c', 'a'], undefined, ['a', 'b', ' c', 'a']],
    [['a', 'b'], [], ['a', 'b']],
    [
      ['a', 'b'],
      ['  ', ''],
      ['a', 'b'],
    ],
    [
      ['a', 'b', ' c', 'a'],
      ['a', 'c '],
      ['a', ' c', 'a'],
    ],
  ])('%j scoped to %j → %j', (names, scope, out) => {
    expect(scopeToolNames(names, scope)).toEqual(out);
  });
});
