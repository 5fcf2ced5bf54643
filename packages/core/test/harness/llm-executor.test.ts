import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion, startChatServer, type ScriptedReply } from '../../../../test/helpers/chat-server.js';
import { tempDir } from '../../../../test/helpers/temp.js';
import { endpointUrl } from '../../src/providers/http-json.js';
import type { ChatProvider } from '../../src/providers/chat.js';
import { OpenAICompatibleChat } from '../../src/providers/openai-chat.js';
import { ProviderConfigError, providersFrom, resolveProviderSettings } from '../../src/providers/settings.js';
import { runLlmStep } from '../../src/harness/executors/llm-executor.js';
import { classifyToolError } from '../../src/harness/tools/tool-errors.js';
import { OUT_OF_SCOPE_RESULT, runToolLoop } from '../../src/harness/inner-loop/tool-loop.js';
import type { ObservationKind } from '../../src/harness/observations/observation.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import type { DispatchRequest } from '../../src/harness/reconciler/dispatcher.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { BackendPlanFiles } from '../../src/harness/reconciler/backend-plan-files.js';
import { recordOutcome } from '../../src/harness/reconciler/record.js';
import { computeMetrics } from '../../src/harness/trace/metrics.js';
import { assembleTrace } from '../../src/harness/trace/trace.js';

const fast = { perCallTimeoutMs: 2000, maxAttempts: 3, baseBackoffMs: 1, maxBackoffMs: 2 };

async function fixture(
  script: (n: number, body: Record<string, unknown>) => ScriptedReply,
  line = '- [/] Summarize the notes [role:: researcher]',
) {
  const server = await startChatServer(script);
  const root = await tempDir();
  await writeFile(join(root, 'notes.txt'), 'the answer is 42\n');
  const recorded: Array<{ kind: ObservationKind; text: string; data?: Record<string, unknown> }> = [];
  const plan = parsePlan(`---\ngoal: learn the answer\n---\n${line}\n`);
  const request: DispatchRequest = {
    plan,
    step: plan.steps[0]!,
    planName: 't',
    stepKey: 'step-key',
    attempt: 0,
    remaining: { toolCalls: 0, tokens: 0 },
    record: async (e) => void recorded.push(e as (typeof recorded)[number]),
    signal: new AbortController().signal,
  };
  const provider = new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'test-model', apiKey: 'sk-test' });
  return {
    server,
    root,
    recorded,
    request,
    provider,
    opts: { provider, projectRoot: root, loop: { retry: fast, modelRetry: fast } },
  };
}

const toolMessages = (body: Record<string, unknown>) =>
  (body['messages'] as Array<Record<string, unknown>>).filter((m) => m['role'] === 'tool');

describe('the OpenAI-compatible provider', () => {
  it.each([
    ['http://localhost:11434/v1', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:11434/v1/', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:8080', 'http://localhost:8080/v1/chat/completions'],
    ['https://gw.example/openai/v1', 'https://gw.example/openai/v1/chat/completions'],
  ])('%s → %s', (base, url) => {
    expect(endpointUrl(base, 'chat/completions')).toBe(url);
  });

  it('sends model, messages, tools and the key; reads text, tool calls and usage', async () => {
    const { server, provider } = await fixture(() => ({
      body: completion('', [{ name: 'read_file', args: { path: 'a' } }], 33),
    }));
    const res = await provider.chat(
      {
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ name: 'read_file', description: 'd', parameters: { type: 'object' } }],
      },
      new AbortController().signal,
    );
    expect(res).toMatchObject({
      content: '',
      toolCalls: [{ id: 'call_0', name: 'read_file', arguments: '{"path":"a"}' }],
      usage: { totalTokens: 33 },
    });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'read_file' } }],
    });
  });

  it.each([
    [{ status: 503, body: 'down' }, 'unavailable', '503 (service unavailable)'],
    [{ status: 429, body: 'slow down' }, 'unavailable', '429 (rate limit)'],
    [{ status: 401, body: 'who?' }, 'permission', '401 (not authorized)'],
    [{ status: 404, body: 'no model' }, 'not_found', '404 (not found)'],
    [{ status: 200, body: '<html>' }, 'internal', 'malformed answer: the body is not JSON'],
    [{ status: 200, body: { nope: 1 } }, 'internal', 'malformed answer: no choices[0].message'],
  ])('an answer %j classifies as %s', async (reply, type, text) => {
    const { provider } = await fixture(() => reply);
    const error = await provider.chat({ messages: [] }, new AbortController().signal).catch((e: unknown) => e);
    expect((error as Error).message).toContain(text);
    expect(classifyToolError(error)!.type).toBe(type);
  });

  it('an unreachable endpoint is unavailable (retryable)', async () => {
    const { server, provider } = await fixture(() => ({ body: {} }));
    await server.close();
    const error = await provider.chat({ messages: [] }, new AbortController().signal).catch((e: unknown) => e);
    expect(classifyToolError(error)!.type).toBe('unavailable');
  });

  it('is configured from AGENTM_LLM_* and refuses half a configuration', () => {
    const chatProviderFromEnv = (env: NodeJS.ProcessEnv) => providersFrom(resolveProviderSettings({ env })).chat;
    expect(chatProviderFromEnv({})).toBeUndefined();
    expect(chatProviderFromEnv({ AGENTM_LLM_BASE_URL: 'http://h:1/v1', AGENTM_LLM_MODEL: 'm' })!.name).toBe(
      'openai-compatible http://h:1/v1 model=m',
    );
    expect(() => chatProviderFromEnv({ AGENTM_LLM_BASE_URL: 'http://h:1/v1' })).toThrow(ProviderConfigError);
    expect(() => chatProviderFromEnv({ AGENTM_LLM_MODEL: 'm' })).toThrow('AGENTM_LLM_BASE_URL is not');
    expect(() => chatProviderFromEnv({ AGENTM_LLM_BASE_URL: 'ftp://x', AGENTM_LLM_MODEL: 'm' })).toThrow(
      'must be an http(s) URL',
    );
  });
});

describe('an LLM step', () => {
  it('calls tools in the project and finishes with the model’s answer, recording each tool result and the stop reason', async () => {
    const f = await fixture((n) =>
      n === 0
        ? { body: completion('', [{ name: 'read_file', args: { path: 'notes.txt' } }], 50) }
        : { body: completion('The answer is 42.', [], 70) },
    );
    const outcome = await runLlmStep(f.request, f.opts);
    expect(outcome).toMatchObject({
      status: 'done',
      summary: 'The answer is 42.',
      toolCalls: 1,
      tokens: 120,
      tool: 'llm',
      data: { stop_reason: 'respondToUser', role: 'researcher' },
    });
    expect(toolMessages(f.server.requests[1]!.body)).toEqual([
      { role: 'tool', tool_call_id: 'call_0', name: 'read_file', content: 'the answer is 42\n' },
    ]);
    const offered = (f.server.requests[0]!.body['tools'] as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(['read_file', 'list_files', 'search_text']);
    expect(f.recorded.map((r) => [r.kind, r.data?.['tool'] ?? r.data?.['stop_reason']])).toEqual([
      ['tool_result', 'read_file'],
      ['note', 'respondToUser'],
    ]);
    expect(f.recorded[0]!.data!['idem']).toMatch(/^[0-9a-f]{32}$/);
  });

  it("counts each tool call once in the trace: the step's result carries them, its tool results say 0", async () => {
    const f = await fixture(
      (n) =>
        n < 2
          ? {
              body: completion(
                '',
                [
                  n === 0
                    ? { name: 'read_file', args: { path: 'notes.txt' } }
                    : { name: 'list_files', args: { path: '.' } },
                ],
                5,
              ),
            }
          : { body: completion('The answer is 42.', [], 5) },
      '- [/] Summarize the notes [id:: s] [role:: researcher] [agent:: me]',
    );
    const backend = new MemoryBackend();
    const files = new BackendPlanFiles(backend, backend.resolve('PLAN-t.md'), backend.resolve('progress-t.md'), {});
    await backend.write(backend.resolve('PLAN-t.md'), f.request.plan.text);
    const record: DispatchRequest['record'] = async (e) =>
      void (await files.commit({ observations: [makeObservation({ ...e, step: 's', actor: 'me' })] }));
    const outcome = await runLlmStep({ ...f.request, record }, f.opts);
    expect(outcome.toolCalls).toBe(2);
    await recordOutcome(files, 'me', f.request.step, outcome, Date.now);
    const log = parseProgress(await files.readProgress());
    expect(log.filter((o) => o.kind === 'tool_result')).toHaveLength(3); // two tool results and the step's result
    expect(computeMetrics(assembleTrace('t', f.request.plan, log)).toolCalls).toBe(2);
  });

  it('retries a model that answers 5xx and then succeeds', async () => {
    const f = await fixture((n) => (n < 2 ? { status: 502, body: 'bad gateway' } : { body: completion('done') }));
    expect((await runLlmStep(f.request, f.opts)).status).toBe('done');
    expect(f.server.requests).toHaveLength(3);
  });

  it('fails with hard_error when the model keeps returning malformed output', async () => {
    const f = await fixture(() => ({ body: '{"choices": "garbage"' }));
    const outcome = await runLlmStep(f.request, f.opts);
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toMatch(/^stopped \(hard_error\): internal: provider .* malformed answer/);
    expect(f.server.requests).toHaveLength(3);
  });

  it('fails with a timeout when the model is slower than the per-call deadline, after its attempts', async () => {
    const f = await fixture(() => ({ body: completion('late'), delayMs: 400 }));
    // Attempts are counted where they start: a call aborted at 60 ms may never reach the server (the
    // first request of a process sets up its HTTP client), so the server's count is a timing, not a fact.
    let calls = 0;
    const provider: ChatProvider = { name: f.provider.name, chat: (r, s) => (calls++, f.provider.chat(r, s)) };
    const outcome = await runLlmStep(f.request, {
      ...f.opts,
      provider,
      loop: { modelRetry: { ...fast, perCallTimeoutMs: 60, maxAttempts: 2 } },
    });
    expect(outcome.summary).toMatch(/^stopped \(hard_error\): timeout: /);
    expect(calls).toBe(2);
  });

  it('stops a model that repeats the same call (loop_detected) without re-running the tool', async () => {
    const f = await fixture(() => ({ body: completion('', [{ name: 'read_file', args: { path: 'notes.txt' } }]) }));
    const outcome = await runLlmStep(f.request, f.opts);
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toContain('stopped (loop_detected): the model repeated the same read_file call');
    expect(f.server.requests).toHaveLength(3);
    expect(f.recorded.filter((r) => r.kind === 'tool_result')).toHaveLength(1);
    expect(f.recorded.at(-1)).toMatchObject({
      kind: 'note',
      data: { stop_reason: 'loop_detected', tool: 'read_file' },
    });
  });

  it('refuses tools outside the role, unknown tools and bad arguments, telling the model why', async () => {
    const f = await fixture((n) =>
      n === 0
        ? {
            body: completion('', [
              { name: 'write_file', args: { path: 'x.txt', content: 'no' } },
              { name: 'launch_rocket', args: {} },
              { name: 'read_file', args: { file: 'notes.txt' } },
            ]),
          }
        : { body: completion('ok') },
    );
    expect((await runLlmStep(f.request, f.opts)).status).toBe('done');
    const [scope, unknown, invalid] = toolMessages(f.server.requests[1]!.body).map((m) => m['content'] as string);
    expect(scope).toBe(OUT_OF_SCOPE_RESULT);
    expect(JSON.parse(unknown!)).toEqual({
      type: 'not_found',
      message: 'tool "launch_rocket" not found',
      retryable: false,
      userFixable: true,
      attempts: 1,
    });
    expect(JSON.parse(invalid!)).toMatchObject({
      type: 'validation',
      userFixable: true,
      message: 'additional property "file" is not allowed (allowed: path)',
    });
    expect(existsSync(join(f.root, 'x.txt'))).toBe(false);
  });

  it('a researcher step the planner upgraded ([domains:: …] [tools:: write_file]) may write, and is told its domains', async () => {
    const f = await fixture(
      (n) =>
        n === 0
          ? { body: completion('', [{ name: 'write_file', args: { path: 'x.txt', content: 'yes' } }]) }
          : { body: completion('written') },
      '- [/] Summarize the notes [role:: researcher] [domains:: research-methods, workbench] [tools:: read_file, write_file, launch_rocket]',
    );
    expect((await runLlmStep(f.request, f.opts)).status).toBe('done');
    const offered = (f.server.requests[0]!.body['tools'] as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).toContain('write_file');
    expect(offered).not.toContain('launch_rocket');
    const system = (f.server.requests[0]!.body['messages'] as Array<{ role: string; content: string }>)[0]!;
    expect(system.content).toContain('Your knowledge domains for this step: research-methods, workbench.');
    expect(readFileSync(join(f.root, 'x.txt'), 'utf8')).toBe('yes');
  });

  it('lets a builder write inside the project but never outside it', async () => {
    const f = await fixture(
      (n) =>
        n === 0
          ? {
              body: completion('', [
                { name: 'write_file', args: { path: 'out/a.txt', content: 'hi' } },
                { name: 'write_file', args: { path: '../escape.txt', content: 'x' } },
              ]),
            }
          : { body: completion('written') },
      '- [/] Write a file [role:: builder]',
    );
    expect((await runLlmStep(f.request, f.opts)).status).toBe('done');
    expect(existsSync(join(f.root, 'out', 'a.txt'))).toBe(true);
    expect(existsSync(join(f.root, '..', 'escape.txt'))).toBe(false);
    expect(JSON.parse(toolMessages(f.server.requests[1]!.body)[1]!['content'] as string)).toMatchObject({
      type: 'permission',
    });
  });

  it('stops when the plan’s tool-call budget runs out', async () => {
    const f = await fixture((n) => ({
      body: completion('', [{ name: 'list_files', args: { path: n === 0 ? '.' : 'x' } }]),
    }));
    const outcome = await runLlmStep({ ...f.request, remaining: { toolCalls: 1, tokens: 0 } }, f.opts);
    expect(outcome.summary).toContain('stopped (budget_exhausted)');
  });

  it('trims old turns to the context budget, keeping the system prompt and recording a note', async () => {
    const f = await fixture((n) =>
      n < 4
        ? { body: completion('x'.repeat(400), [{ name: 'list_files', args: { path: `p${n}` } }]) }
        : { body: completion('done') },
    );
    const outcome = await runLlmStep(f.request, { ...f.opts, loop: { ...f.opts.loop, contextTokens: 150 } });
    expect(outcome.status).toBe('done');
    const last = f.server.requests.at(-1)!.body['messages'] as Array<{ role: string; content: string }>;
    expect(last[0]!.role).toBe('system');
    expect(last[1]!.content).toMatch(
      /^\[context trimmed: \d+ earlier turn\(s\) summarized to stay within the 150-token window\]$/,
    );
    expect(f.recorded.some((r) => r.kind === 'note' && r.text.startsWith('context trimmed'))).toBe(true);
  });

  it('without a provider fails, naming the variables to set', async () => {
    const f = await fixture(() => ({ body: {} }));
    const outcome = await runLlmStep(f.request, { projectRoot: f.root });
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toContain('AGENTM_LLM_BASE_URL');
    expect(outcome.summary).toContain('AGENTM_LLM_MODEL');
  });

  it('a turn with no tools on offer ends as text_only', async () => {
    const f = await fixture(() => ({ body: completion('just text') }));
    const result = await runToolLoop({
      provider: f.provider,
      messages: [{ role: 'user', content: 'hi' }],
      tools: new Map(),
      toolContext: { projectRoot: f.root },
      stepKey: 'k',
      signal: new AbortController().signal,
    });
    expect([result.stopReason, result.text]).toEqual(['text_only', 'just text']);
    expect(f.server.requests[0]!.body['tools']).toBeUndefined();
  });
});
