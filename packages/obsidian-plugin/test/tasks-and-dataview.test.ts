import { readFileSync } from 'node:fs';
import { effectiveStatus } from '@agentm/core/harness';
import { parsePlan } from '@agentm/core';
import { describe, expect, it } from 'vitest';
import { loadDataview } from './helpers/dataview.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dataview = loadDataview();

/** The fenced blocks of `language` in the plugin's README. */
function blocks(language: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}

/** How Dataview types an inline field's value: its expression parser, else (Dataview's rule) the text. */
function dataviewValue(text: string): unknown {
  const parsed = dataview.EXPRESSION.inlineField.parse(text);
  return parsed.status ? parsed.value : text;
}

/** A plan as agents leave it: planned by `agentm plan`, one step claimed, one failed twice. */
const PLAN = [
  '---',
  'goal: Ship the parser',
  'status: open',
  '---',
  '# Ship the parser',
  '- [/] Build the parser [id:: build] [role:: builder] [key:: 7f3a] [agent:: 4711@box] [started:: 2026-11-26T09:15:00.000Z]',
  '- [!] Run the tests [id:: test] [after:: build, lint] [cmd:: npm test] [attempt:: 2]',
  '- [ ] Wait three days [id:: 3d] [after:: test]',
  '',
].join('\n');

describe('plan steps as Dataview reads them (its own parsers, obsidian-dataview)', () => {
  const steps = parsePlan(PLAN).steps;
  const field = (id: string, key: string) => steps.find((s) => s.id === id)!.fields[key]!;

  it('every field AgentM writes has the type the README gives it', () => {
    expect(dataviewValue(field('test', 'attempt'))).toBe(2);
    const started = dataviewValue(field('build', 'started')) as { toISO?: () => string };
    expect(started.toISO?.()).toBe('2026-11-26T09:15:00.000Z');
    expect(dataviewValue(field('test', 'after'))).toBe('build, lint');
    for (const [id, key] of [
      ['build', 'id'],
      ['build', 'agent'],
      ['build', 'role'],
      ['test', 'cmd'],
    ] as const)
      expect(dataviewValue(field(id, key))).toBe(field(id, key));
  });

  it('an id that looks like a duration is one to Dataview (the README says to compare with string(id))', () => {
    const value = dataviewValue(field('3d', 'id')) as { toISO?: () => string };
    expect(value.toISO?.()).toBe('P3D');
  });

  it("the README's Dataview queries are valid Dataview queries", () => {
    const queries = blocks('dataview');
    expect(queries.length).toBeGreaterThanOrEqual(2);
    for (const query of queries) expect(dataview.QUERY_LANGUAGE.query.parse(query)).toMatchObject({ status: true });
  });
});

describe("the README's Tasks custom statuses", () => {
  const statuses = JSON.parse(blocks('json')[0]!) as Array<{
    symbol: string;
    name: string;
    nextStatusSymbol: string;
    type: string;
  }>;

  it('cover [/] [!] [?] [-], each named after the status AgentM reads from that symbol', () => {
    expect(statuses.map((s) => s.symbol)).toEqual(['/', '!', '?', '-']);
    // A step is running when someone claimed it (`[agent:: …]`); an unclaimed `[/]` reads as pending.
    for (const status of statuses)
      expect(parsePlan(`- [${status.symbol}] step [agent:: ann]\n`).steps[0]!.stored).toBe(status.name.toLowerCase());
  });

  it('give Tasks the matching type (cancelled is closed, the others open) and toggle to themselves', () => {
    expect(Object.fromEntries(statuses.map((s) => [s.name, s.type]))).toEqual({
      Running: 'IN_PROGRESS',
      Failed: 'TODO',
      Blocked: 'TODO',
      Cancelled: 'CANCELLED',
    });
    for (const status of statuses) expect(status.nextStatusSymbol).toBe(status.symbol);
  });

  it('a dependency drawn with Tasks (its Dataview format) holds the step back until the task it names is done', () => {
    // As Tasks' Dataview serializer writes a task: fields after two spaces, ids comma-separated.
    const plan = (done: string) =>
      parsePlan(`- [${done}] Build  [id:: abc123]\n- [ ] Ship  [dependsOn:: abc123]  [id:: def456]\n`);
    const status = (doc: ReturnType<typeof parsePlan>) => effectiveStatus(doc, doc.steps[1]!);
    expect(status(plan(' '))).toBe('pending');
    expect(status(plan('x'))).toBe('ready');
  });
});
