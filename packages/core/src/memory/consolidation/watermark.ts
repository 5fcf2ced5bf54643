import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { parseTimestamp } from '../documents/timestamps.js';

/** The per-project consolidation cursor, kept in the project's `_harness/` and synced. */
export interface Watermark {
  /** Epoch ms of the newest episode consolidated (0 before the first run). */
  readonly watermarkMs: number;
  /** Ids of the consolidated episodes stamped exactly `watermarkMs` (a later one at the same minute is still new). */
  readonly boundaryIds: readonly string[];
  readonly lastRunMs: number;
  readonly episodesSeen: number;
}

export const EMPTY_WATERMARK: Watermark = Object.freeze({
  watermarkMs: 0,
  boundaryIds: [],
  lastRunMs: 0,
  episodesSeen: 0,
});

/** The file name used beside a project's PLAN and progress files. */
export const WATERMARK_FILE = 'consolidation.json';

/**
 * Reads the watermark and the hash it was read at (null when absent). A file that is not a watermark
 * reads as the empty one, keeping its hash so the next write replaces it only if nobody changed it.
 */
export async function readWatermark(
  backend: StorageBackend,
  locator: Locator,
): Promise<{ watermark: Watermark; hash: string | null }> {
  let text: string;
  try {
    text = await backend.read(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return { watermark: EMPTY_WATERMARK, hash: null };
    throw error;
  }
  return { watermark: parseWatermark(text), hash: contentHash(text) };
}

export function parseWatermark(text: string): Watermark {
  try {
    const v = JSON.parse(text) as {
      watermark?: unknown;
      boundary_ids?: unknown;
      last_run?: unknown;
      episodes_seen?: unknown;
    };
    const ms = (s: unknown) => (typeof s === 'string' ? (parseTimestamp(s) ?? 0) : 0);
    return {
      watermarkMs: ms(v.watermark),
      boundaryIds: Array.isArray(v.boundary_ids)
        ? v.boundary_ids.filter((x): x is string => typeof x === 'string')
        : [],
      lastRunMs: ms(v.last_run),
      episodesSeen: typeof v.episodes_seen === 'number' ? v.episodes_seen : 0,
    };
  } catch {
    return EMPTY_WATERMARK;
  }
}

export function formatWatermark(w: Watermark): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  return `${JSON.stringify({ version: 1, watermark: iso(w.watermarkMs), boundary_ids: w.boundaryIds, last_run: iso(w.lastRunMs), episodes_seen: w.episodesSeen }, null, 2)}\n`;
}

/**
 * Writes the watermark with a compare-and-swap against the hash it was read at, so two devices that
 * consolidated the same project concurrently do not both advance it: the loser gets
 * `ConcurrentModificationError` and re-runs (its belief changes were CAS-guarded too).
 */
export async function writeWatermark(
  backend: StorageBackend,
  locator: Locator,
  watermark: Watermark,
  expectHash: string | null,
): Promise<void> {
  await backend.write(locator, formatWatermark(watermark), { expectHash });
}

/** Whether an episode is new relative to the watermark. */
export function isAfterWatermark(episode: { id: string; timeMs: number }, w: Watermark): boolean {
  return episode.timeMs > w.watermarkMs || (episode.timeMs === w.watermarkMs && !w.boundaryIds.includes(episode.id));
}
