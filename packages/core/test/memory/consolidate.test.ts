import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { Locator } from '../../src/seam/locator.js';
import { consolidate, type ConsolidateOptions } from '../../src/memory/consolidation/consolidate.js';
import { readProjectEpisodes, watermarkLocatorFor } from '../../src/memory/consolidation/episodes-source.js';
import { MapBeliefStore } from './helpers.js';

const DAY = 86_400_000;
const PROGRESS = new Locator('desk/projects/agentm/_harness/progress.md');
const entry = (iso: string, text: string) => `- ${iso} ${text}\n`;
const T0 = Date.UTC(2026, 0, 5, 10);
const iso = (ms: number) => new Date(ms).toISOString();

async function setup(text: string) {
  const backend = new MemoryBackend();
  await backend.write(PROGRESS, `# Progress\n\n${text}`);
  const beliefs = new MapBeliefStore();
  const run = (over: Partial<ConsolidateOptions> = {}) =>
    consolidate({
      backend,
      project: 'agentm',
      beliefs,
      watermark: watermarkLocatorFor('agentm'),
      now: T0 + DAY,
      ...over,
    });
  return { backend, beliefs, run };
}

const LOCKY = [
  entry(iso(T0), 'the vault lock timed out while the sync client held files'),
  entry(iso(T0 + 60_000), 'the vault lock timed out while the sync client held files again'),
  entry(iso(T0 + 120_000), 'released v1.2 to the registry'),
].join('');

describe('consolidate', () => {
  it('distils a cluster into one belief, leaves a one-off event alone, and advances the watermark', async () => {
    const { backend, beliefs, run } = await setup(LOCKY);
    const report = await run();
    expect(report).toMatchObject({ episodes: 3, clusters: 2, reinforced: [], decayed: [], pruned: [] });
    expect(report.created).toHaveLength(1);
    const [belief] = [...beliefs.beliefs.values()];
    expect(belief).toMatchObject({
      owner: 'agentm',
      statement: 'the vault lock timed out while the sync client held files',
      confidence: 0.5,
      reinforceCount: 1,
      status: 'active',
    });
    const episodes = await readProjectEpisodes(backend, 'agentm');
    expect(belief!.derivedFrom).toEqual(episodes.slice(0, 2).map((e) => e.id));
    expect(report.watermark).toEqual({ fromMs: 0, toMs: T0 + 120_000 });
    expect(JSON.parse(await backend.read(watermarkLocatorFor('agentm')))).toMatchObject({
      watermark: iso(T0 + 120_000),
      episodes_seen: 3,
    });
  });

  it('changes nothing when run twice over the same episodes', async () => {
    const { backend, beliefs, run } = await setup(LOCKY);
    await run();
    const snapshot = JSON.stringify([...beliefs.beliefs]);
    const mark = await backend.read(watermarkLocatorFor('agentm'));
    const writes = beliefs.writes;
    const again = await run({ now: T0 + DAY + 3_600_000 });
    expect(again).toMatchObject({ episodes: 0, created: [], reinforced: [], decayed: [], pruned: [] });
    expect(beliefs.writes).toBe(writes);
    expect(JSON.stringify([...beliefs.beliefs])).toBe(snapshot);
    expect(await backend.read(watermarkLocatorFor('agentm'))).toBe(mark);
  });

  it('reinforces the belief when new episodes say the same thing, and consolidates a late entry stamped at the watermark', async () => {
    const { backend, beliefs, run } = await setup(LOCKY);
    await run();
    const more =
      LOCKY +
      entry(iso(T0 + 120_000), 'the vault lock timed out while the sync client held files') +
      entry(iso(T0 + 180_000), 'the vault lock timed out while the sync client held files');
    await backend.write(PROGRESS, `# Progress\n\n${more}`);
    const report = await run({ now: T0 + 2 * DAY });
    expect(report.episodes).toBe(2);
    expect(report.reinforced).toHaveLength(1);
    const [belief] = [...beliefs.beliefs.values()];
    expect(belief).toMatchObject({ confidence: 0.65, reinforceCount: 2, lastReinforcedMs: T0 + 2 * DAY });
    expect(belief!.derivedFrom).toHaveLength(4);
  });

  it('decays an unreinforced belief once per whole 30-day window and prunes it at 0.15, never deleting it', async () => {
    const { beliefs, run } = await setup(LOCKY);
    await run();
    const id = [...beliefs.beliefs.keys()][0]!;
    const at = (days: number) => run({ now: T0 + DAY + days * DAY });
    expect((await at(29)).decayed).toEqual([]);
    expect((await at(31)).decayed).toEqual([{ id, from: 0.5, to: 0.4 }]);
    expect((await at(45)).decayed).toEqual([]);
    expect((await at(95)).decayed).toEqual([{ id, from: 0.4, to: 0.2 }]);
    expect((await at(121)).pruned).toEqual([{ id, from: 0.2, to: 0.1 }]);
    expect(beliefs.beliefs.get(id)).toMatchObject({ status: 'pruned', confidence: 0.1 });
    expect((await at(400)).pruned).toEqual([]);
  });

  it('writes nothing on a dry run but reports what it would do', async () => {
    const { backend, beliefs, run } = await setup(LOCKY);
    const report = await run({ dryRun: true });
    expect(report.created).toHaveLength(1);
    expect(beliefs.writes).toBe(0);
    expect(await backend.exists(watermarkLocatorFor('agentm'))).toBe(false);
  });

  it('refuses to advance a watermark another device advanced meanwhile, and a re-run double counts nothing', async () => {
    const { backend, beliefs, run } = await setup(LOCKY);
    const foreign =
      '{"version":1,"watermark":"2026-01-05T10:00:00.000Z","boundary_ids":[],"last_run":"2026-01-05T10:00:00.000Z","episodes_seen":1}\n';
    let raced = false;
    const orig = beliefs.createBelief.bind(beliefs);
    beliefs.createBelief = async (draft) => {
      if (!raced) {
        raced = true;
        await backend.write(watermarkLocatorFor('agentm'), foreign);
      }
      return orig(draft);
    };
    await expect(run()).rejects.toBeInstanceOf(ConcurrentModificationError);
    expect(await backend.read(watermarkLocatorFor('agentm'))).toBe(foreign);
    expect(beliefs.beliefs.size).toBe(1);
    const again = await run();
    expect(again.created).toEqual([]);
    expect(again.skipped).toBe(1);
    expect(beliefs.beliefs.size).toBe(1);
    expect(JSON.parse(await backend.read(watermarkLocatorFor('agentm')))).toMatchObject({
      watermark: iso(T0 + 120_000),
    });
  });
});
