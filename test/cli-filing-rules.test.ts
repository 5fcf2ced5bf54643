import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { fileSnapshot } from './helpers/temp.js';

const RULES = [
  '# Storage rules',
  '',
  'Where memories go. The block below is what programs read.',
  '',
  '```storage-rules',
  'classes: {semantic: a, procedural: b, episodic: c, entities: d, crystallized: e, mocs: f}',
  'memory_types: [preference, convention, meeting-note]',
  'default_type: preference',
  'routing: {preference: memory/semantic, convention: memory/semantic, meeting-note: memory/episodic}',
  'record_kinds: [brief, ledger]',
  'deprecations: {minutes: meeting-note, decision: convention}',
  'thresholds: {}',
  '```',
  '',
].join('\n');

async function save(w: AgentmWorld, kind: string, slug: string, env: NodeJS.ProcessEnv = {}) {
  return runAgentm(['save', kind, slug, '--body-file', '-'], { home: w.home, stdin: `A ${kind} note.\n`, env });
}

describe('agentm save files by the resolved storage rules (issue 10 item 2)', { timeout: 60_000 }, () => {
  it("files every kind agentm's shipped rules accept (research, feedback, skill, session-brief, persona, …)", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const cases: Array<[string, string, string]> = [
      ['research', 'type', 'reference'],
      ['feedback', 'type', 'preference'],
      ['skill', 'type', 'reference'],
      ['session-brief', 'kind', 'session-brief'],
      ['persona', 'kind', 'persona'],
      ['idea-incubator-runbook', 'kind', 'idea-incubator-runbook'],
    ];
    for (const [kind, field, value] of cases) {
      const result = await save(w, kind, `a-${kind}`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${join(w.memoryRoot, 'memory', value, `a-${kind}.md`)}\n`);
      const note = parseNote(await readFile(result.stdout.trim(), 'utf8'));
      expect([note.kindField, note.kind]).toEqual([field, value]);
    }
  });

  it("a vault's standards/storage-rules.md (beside the memory root) decides, and $AGENTM_STORAGE_RULES wins over it", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await mkdir(join(w.vault, 'standards'), { recursive: true });
    await writeFile(join(w.vault, 'standards', 'storage-rules.md'), RULES);
    const minutes = await save(w, 'minutes', 'standup');
    expect(minutes.code, minutes.stderr).toBe(0);
    expect(minutes.stdout).toBe(`${join(w.memoryRoot, 'memory', 'meeting-note', 'standup.md')}\n`);
    const research = await save(w, 'research', 'x');
    expect(research.code).toBe(2);
    expect(research.stderr).toContain('"research" is in neither register');

    const explicit = join(w.home, 'team-rules.md');
    await writeFile(explicit, RULES.replace('record_kinds: [brief, ledger]', 'record_kinds: [brief, ledger, journal]'));
    const journal = await save(w, 'journal', 'day-one', { AGENTM_STORAGE_RULES: explicit });
    expect(journal.code, journal.stderr).toBe(0);
    expect(journal.stdout).toBe(`${join(w.memoryRoot, 'memory', 'journal', 'day-one.md')}\n`);
  });

  it('a rules block that does not parse refuses filing (exit 2), names the file and writes nothing', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const rules = join(w.memoryRoot, 'standards', 'storage-rules.md');
    await mkdir(join(w.memoryRoot, 'standards'), { recursive: true });
    await writeFile(rules, RULES.replace('record_kinds: [brief, ledger]', 'record_kinds: [brief, ledger'));
    const before = await fileSnapshot(w.memoryRoot);
    const result = await save(w, 'convention', 'x');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(rules);
    expect(result.stderr).toContain('not valid YAML');
    expect(await fileSnapshot(w.memoryRoot)).toEqual(before);
    expect(await readdir(join(w.memoryRoot, 'memory'))).toEqual(['convention']);
  });

  it('evolve files the new note by the same rules (a kind only the vault registers)', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await mkdir(join(w.memoryRoot, 'standards'), { recursive: true });
    await writeFile(join(w.memoryRoot, 'standards', 'storage-rules.md'), RULES);
    const saved = await save(w, 'ledger', 'costs');
    expect(saved.code, saved.stderr).toBe(0);
    const evolved = await runAgentm(['evolve', saved.stdout.trim(), '--reason', 'new numbers', '--body-file', '-'], {
      home: w.home,
      stdin: 'New costs.\n',
    });
    expect(evolved.code, evolved.stderr).toBe(0);
    expect(parseNote(await readFile(saved.stdout.trim(), 'utf8'))).toMatchObject({
      kind: 'ledger',
      body: 'New costs.\n',
    });
  });
});
