import { describe, expect, it } from 'vitest';
import { DEFAULT_PHASE_BUDGETS } from '../../src/memory/recall/budget.js';
import { type IndexDocument } from '../../src/memory/documents/document.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import { phaseRecall } from '../../src/memory/recall/phase-recall-shell.js';
import { renderPhaseRecall, type PhaseCandidate } from '../../src/memory/recall/phase-recall.js';
import { kindWeight, OTHER_KIND_WEIGHT } from '../../src/memory/recall/phases.js';
import { normalizePhase, phaseBudget } from '../../src/memory/recall/budget.js';
import { indexDoc } from './helpers.js';

const c = (id: string, kind: string, score: number, body = `${id} body`, alwaysLoad = false): PhaseCandidate => ({
  id,
  locator: `memory/${kind}/${id}.md`,
  title: id,
  kind,
  body,
  score,
  alwaysLoad,
  updatedMs: 0,
});

describe('phase budgets', () => {
  it.each(Object.entries(DEFAULT_PHASE_BUDGETS))("%s defaults to agentm's %d tokens", (phase, tokens) => {
    expect(phaseBudget(phase, { env: {} })).toBe(tokens);
  });

  it('takes HARNESS_RECALL_BUDGET_<PHASE> when it is a positive integer, and an explicit limit over both', () => {
    expect(phaseBudget('review', { env: { HARNESS_RECALL_BUDGET_REVIEW: '900' } })).toBe(900);
    expect(phaseBudget('review', { env: { HARNESS_RECALL_BUDGET_REVIEW: '0' } })).toBe(4000);
    expect(phaseBudget('review', { env: { HARNESS_RECALL_BUDGET_REVIEW: 'lots' } })).toBe(4000);
    expect(phaseBudget('review', { limit: 50, env: { HARNESS_RECALL_BUDGET_REVIEW: '900' } })).toBe(50);
    // agentm's phase_budget: a limit that is not a positive integer is ignored, not an error.
    expect(phaseBudget('review', { limit: -3 })).toBe(4000);
  });

  it('reads an unknown or missing phase as work', () => {
    expect(normalizePhase('deploy')).toBe('work');
    expect(normalizePhase(undefined)).toBe('work');
    expect(normalizePhase(' Bugfix ')).toBe('bugfix');
    expect(phaseBudget('deploy', { env: { HARNESS_RECALL_BUDGET_WORK: '123' } })).toBe(123);
  });
});

describe('renderPhaseRecall', () => {
  it('weights kinds per phase: bugfix puts fixes first, setup conventions', () => {
    const cands = [c('a-convention', 'convention', 0.8), c('a-fix', 'fix', 0.7), c('an-idea', 'idea', 0.9)];
    const order = (phase: string) => renderPhaseRecall({ phase, candidates: cands, budgetTokens: 1000 }).included;
    expect(order('bugfix')).toEqual(['a-fix', 'a-convention', 'an-idea']);
    expect(order('setup')).toEqual(['a-convention', 'a-fix', 'an-idea']);
    expect(order('plan')).toEqual(['an-idea', 'a-convention', 'a-fix']);
    expect(kindWeight('work', 'no-such-kind')).toBe(OTHER_KIND_WEIGHT);
  });

  it('leaves out a kind whose weight is 0', () => {
    const weights = { work: { fix: 1, episode: 0 } };
    const out = renderPhaseRecall({
      phase: 'work',
      candidates: [c('e', 'episode', 1), c('f', 'fix', 0.1)],
      budgetTokens: 1000,
      weights,
    });
    expect(out.included).toEqual(['f']);
  });

  it('stays within the budget (≈ 4 characters per token), cutting the first item that does not fit', () => {
    const long = 'word '.repeat(400);
    const cands = [c('one', 'fix', 0.9, long), c('two', 'fix', 0.8, long), c('three', 'fix', 0.7, long)];
    const out = renderPhaseRecall({ phase: 'work', candidates: cands, budgetTokens: 700 });
    expect(out.markdown.length).toBeLessThanOrEqual(700 * 4);
    expect(out.included).toEqual(['one', 'two']);
    expect(out.truncated).toBe(true);
    expect(out.markdown).toContain('…');
  });

  it('always includes always-load notes first, whatever their score or kind weight', () => {
    const cands = [c('hot-fix', 'fix', 1), c('who-i-am', 'preference', 0, 'The user is Alex.', true)];
    const out = renderPhaseRecall({
      phase: 'bugfix',
      project: 'agentm',
      candidates: cands,
      budgetTokens: 1000,
      weights: { bugfix: { fix: 1, preference: 0 } },
    });
    expect(out.included).toEqual(['who-i-am', 'hot-fix']);
    expect(out.markdown.startsWith('## Recall · bugfix · agentm\n\n### who-i-am\n')).toBe(true);
    const tight = renderPhaseRecall({
      phase: 'bugfix',
      candidates: [c('big', 'preference', 0, 'x '.repeat(500), true)],
      budgetTokens: 40,
    });
    expect(tight.included).toEqual(['big']);
    expect(tight.markdown.length).toBeLessThanOrEqual(160);
  });

  it('renders nothing when there is nothing to recall', () => {
    expect(renderPhaseRecall({ phase: 'work', candidates: [], budgetTokens: 100 })).toEqual({
      markdown: '',
      included: [],
      truncated: false,
    });
  });
});

describe('phaseRecall over an index', () => {
  it("includes the project's always-load notes and ranks the rest for the query, through readBody", async () => {
    const state = new IndexState();
    const d = (id: string, over: Partial<IndexDocument>): IndexDocument =>
      indexDoc(id, `${id} text`, { createdMs: 0, updatedMs: 0, untitled: false, ...over });
    for (const doc of [
      d('always.md', { alwaysLoad: true, kind: 'preference', text: 'always text' }),
      d('other-always.md', { alwaysLoad: true, owner: 'other' }),
      d('lock.md', { text: 'lock timeout fix', owner: 'agentm' }),
      d('sync.md', { text: 'sync conflict' }),
    ])
      state.putFile({ key: doc.id, mtimeMs: 0, size: 0, hash: doc.id }, [doc]);
    const out = await phaseRecall(
      { state },
      {
        phase: 'bugfix',
        project: 'agentm',
        query: 'lock timeout',
        env: {},
        now: 0,
        readBody: async (doc) => `FULL BODY OF ${doc.id}`,
      },
    );
    expect(out.included).toEqual(['always.md', 'lock.md']);
    expect(out.markdown).toContain('FULL BODY OF lock.md');
    expect(out.warnings).toEqual([]);
  });
});
