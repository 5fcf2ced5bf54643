import { describe, expect, it } from 'vitest';
import { recallTuning } from '../../src/recall-tuning';
import type { AgentMSettings } from '../../src/settings';

const settings = (recall: Partial<AgentMSettings['recall']>): AgentMSettings => ({
  vaultPath: '',
  phase: 'work',
  recall: {
    semanticWeight: undefined,
    recencyWeight: undefined,
    halfLifeHours: undefined,
    maxResults: 10,
    ...recall,
  },
  providers: { baseUrl: '', embeddingModel: '', chatModel: '' },
});

// Issue 21: VS Code's recall passed its 1-hour default half-life on every query, which the workspace's
// query resolution applies to notes too: the config's memory.recall.note_half_life never counted.
describe('the recall tuning VS Code adds to a query', () => {
  it('is nothing when no one set it: the workspace resolves the half-lives (the config’s note half-life counts)', () => {
    expect(recallTuning(settings({}))).toEqual({});
  });

  it('is what a person set, in core’s units (a half-life applies to every memory, as agentm recall --half-life)', () => {
    expect(recallTuning(settings({ semanticWeight: 0.9, recencyWeight: 0.1, halfLifeHours: 2 }))).toEqual({
      wSem: 0.9,
      wRec: 0.1,
      halfLife: 7_200_000,
    });
    expect(recallTuning(settings({ halfLifeHours: 0 }))).toEqual({ halfLife: 0 });
  });
});
