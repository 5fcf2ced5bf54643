import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOCABULARY, resolveKind } from '../../src/memory/notes/vocabulary.js';
import { NoteError, type HostEnv } from '../../src/index.js';
import { resolveVocabulary } from '../../src/memory/notes/resolve-vocabulary.js';
import { StorageRulesError, UnknownKindError } from '../../src/memory/notes/errors.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const TYPES = ['preference', 'convention', 'reference', 'workflow', 'fix', 'idea'];
const RECORD_KINDS = [
  'brief',
  'telemetry',
  'session-cost',
  'session-brief',
  'session-findings',
  'session-handoff',
  'conversation',
  'capture',
  'failure-incident',
  'crystallized',
  'opinion-supplement',
  'handoff-artifact',
  'handoff-index',
  'design',
  'project',
  'project-index',
  'project-summary',
  'arc-index',
  'dir-index',
  'pilot-index',
  'research-index',
  'persona',
  'moc',
  'roadmap-integration',
  'skill-watchlist',
  'skill-watchlist-entry',
  'content-refresh-watchlist',
  'debt',
  'idea-incubator',
  'idea-incubator-summary',
  'idea-incubator-research',
  'idea-incubator-runbook',
];
const RETIRED: Record<string, string> = {
  preferences: 'preference',
  feedback: 'preference',
  conventions: 'convention',
  'non-negotiable': 'convention',
  'design-call': 'convention',
  decision: 'convention',
  'decision-summary': 'convention',
  'domain-reference': 'reference',
  research: 'reference',
  'research-synthesis': 'reference',
  snippet: 'reference',
  skill: 'reference',
  evidence: 'reference',
  archive: 'reference',
  'voice-profile': 'reference',
  'workflow-pattern': 'workflow',
  pattern: 'workflow',
  runbook: 'workflow',
  howto: 'workflow',
  insight: 'idea',
  gap: 'idea',
};

/** A storage-rules.md with prose around the fenced block, as agentm's file has. */
function rulesFile(block: string): string {
  return `# Storage rules\n\nProse for people.\n\n\`\`\`storage-rules\n${block}\`\`\`\n\nMore prose.\n`;
}

const CUSTOM_BLOCK = [
  'classes: {semantic: a, procedural: b, episodic: c, entities: d, crystallized: e, mocs: f}',
  'memory_types: [preference, meeting-note]',
  'default_type: preference',
  'routing: {preference: memory/semantic, meeting-note: memory/episodic}',
  'record_kinds: [brief]',
  'deprecations: {minutes: meeting-note}',
  'thresholds: {}',
  '',
].join('\n');

async function world() {
  const home = await tempDir();
  const vault = join(home, 'Vault');
  const memoryRoot = join(vault, 'Agent');
  await mkdir(memoryRoot, { recursive: true });
  const host: HostEnv = { env: {}, home };
  return { home, vault, memoryRoot, host };
}

async function put(path: string, text: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

describe("the shipped filing vocabulary is agentm's storage-rules.default.md", () => {
  it('has the 6 memory types, the 32 record kinds and the 21 retired names, default type preference', () => {
    expect(DEFAULT_VOCABULARY.types).toEqual(TYPES);
    expect(DEFAULT_VOCABULARY.recordKinds).toEqual(RECORD_KINDS);
    expect(DEFAULT_VOCABULARY.retired).toEqual(RETIRED);
    expect(DEFAULT_VOCABULARY.defaultType).toBe('preference');
  });

  it.each([
    ...TYPES.map((k) => [k, 'type', k]),
    ...RECORD_KINDS.map((k) => [k, 'kind', k]),
    ...Object.entries(RETIRED).map(([k, v]) => [k, 'type', v]),
  ])('files %s as %s: %s', (kind, field, value) => {
    expect(resolveKind(kind!, DEFAULT_VOCABULARY)).toMatchObject({ field, value });
  });
});

describe('resolveVocabulary: $AGENTM_STORAGE_RULES → <memory root>/standards → <memory root>/../standards → shipped', () => {
  it('uses the shipped default when no rules file exists (and the config override on top)', async () => {
    const w = await world();
    const resolved = await resolveVocabulary({ host: w.host, config: {}, memoryRoot: w.memoryRoot });
    expect(resolved).toMatchObject({ types: TYPES, recordKinds: RECORD_KINDS, source: '<shipped default>' });
    const overridden = await resolveVocabulary({
      host: w.host,
      config: { 'memory.vocabulary': { record_kinds: ['brief'] } },
      memoryRoot: w.memoryRoot,
    });
    expect(overridden.recordKinds).toEqual(['brief']);
    expect(overridden.types).toEqual(TYPES);
  });

  it('reads the fenced block of the first file that exists, in agentm order', async () => {
    const w = await world();
    const sibling = await put(join(w.vault, 'standards', 'storage-rules.md'), rulesFile(CUSTOM_BLOCK));
    let resolved = await resolveVocabulary({ host: w.host, config: {}, memoryRoot: w.memoryRoot });
    expect(resolved).toMatchObject({ types: ['preference', 'meeting-note'], recordKinds: ['brief'], source: sibling });
    expect(resolveKind('minutes', resolved)).toMatchObject({ field: 'type', value: 'meeting-note' });
    expect(() => resolveKind('research', resolved)).toThrow(UnknownKindError);

    const own = await put(
      join(w.memoryRoot, 'standards', 'storage-rules.md'),
      rulesFile(CUSTOM_BLOCK.replace('record_kinds: [brief]', 'record_kinds: [brief, ledger]')),
    );
    resolved = await resolveVocabulary({ host: w.host, config: {}, memoryRoot: w.memoryRoot });
    expect(resolved).toMatchObject({ recordKinds: ['brief', 'ledger'], source: own });

    const explicit = await put(
      join(w.home, 'elsewhere', 'rules.md'),
      rulesFile(CUSTOM_BLOCK.replace('record_kinds: [brief]', 'record_kinds: [journal]')),
    );
    const env = { host: { ...w.host, env: { AGENTM_STORAGE_RULES: ` ${explicit} ` } }, config: {} };
    expect(await resolveVocabulary({ ...env, memoryRoot: w.memoryRoot })).toMatchObject({
      recordKinds: ['journal'],
      source: explicit,
    });
    // Config memory.vocabulary still overrides whatever file won.
    expect(
      (await resolveVocabulary({ ...env, config: { 'memory.vocabulary': { types: ['x'] } }, memoryRoot: w.memoryRoot }))
        .types,
    ).toEqual(['x']);
  });

  it('takes the memory root from MEMORY_VAULT_PATH / the config when not given', async () => {
    const w = await world();
    const own = await put(join(w.memoryRoot, 'standards', 'storage-rules.md'), rulesFile(CUSTOM_BLOCK));
    const host = { ...w.host, env: { MEMORY_VAULT_PATH: w.memoryRoot } };
    expect((await resolveVocabulary({ host, config: {} })).source).toBe(own);
    expect((await resolveVocabulary({ host: w.host, config: {} })).source).toBe('<shipped default>');
  });

  it('a dangling $AGENTM_STORAGE_RULES is absence: the next source wins', async () => {
    const w = await world();
    const host = { ...w.host, env: { AGENTM_STORAGE_RULES: join(w.home, 'nope.md') } };
    expect((await resolveVocabulary({ host, config: {}, memoryRoot: w.memoryRoot })).source).toBe('<shipped default>');
  });

  it.each([
    ['invalid YAML', 'memory_types: [unclosed\n', /not valid YAML/],
    ['no fenced block', null, /no ```storage-rules fenced block/],
    ['no memory types', CUSTOM_BLOCK.replace('memory_types: [preference, meeting-note]\n', ''), /memory_types/],
    ['a value in both registers', CUSTOM_BLOCK.replace('record_kinds: [brief]', 'record_kinds: [preference]'), /both/],
    ['a retired name pointing nowhere', CUSTOM_BLOCK.replace('minutes: meeting-note', 'minutes: musing'), /musing/],
    ['a non-kebab type', CUSTOM_BLOCK.replace('[preference, meeting-note]', '[Preference, meeting-note]'), /kebab/],
    [
      'a default type that is no type',
      CUSTOM_BLOCK.replace('default_type: preference', 'default_type: brief'),
      /default_type/,
    ],
  ])(
    'a rules file with %s refuses filing with an error naming the file, never falling back',
    async (_, block, reason) => {
      const w = await world();
      const path = await put(
        join(w.memoryRoot, 'standards', 'storage-rules.md'),
        block === null ? '# Storage rules\n\nProse only.\n' : rulesFile(block),
      );
      const error = await resolveVocabulary({ host: w.host, config: {}, memoryRoot: w.memoryRoot }).catch((e) => e);
      expect(error).toBeInstanceOf(StorageRulesError);
      expect(error).toBeInstanceOf(NoteError);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).toMatch(/shipped default|fix/);
    },
  );

  it('a rules path that cannot be read (a folder) is an error too: only absence falls through', async () => {
    const w = await world();
    const path = join(w.memoryRoot, 'standards', 'storage-rules.md');
    await mkdir(path, { recursive: true });
    const error = await resolveVocabulary({ host: w.host, config: {}, memoryRoot: w.memoryRoot }).catch((e) => e);
    expect(error).toBeInstanceOf(StorageRulesError);
    expect((error as Error).message).toContain(path);
  });
});
