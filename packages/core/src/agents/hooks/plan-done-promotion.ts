import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHash } from '../../write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import { lockedCasWrite } from '../../write-protocol/cas-write.js';
import { localHarnessDir } from '../../state/state-location.js';
import { parseProgress } from '../../harness/observations/progress-format.js';
import type { PlanDocument } from '../../harness/plan/plan-document.js';
import { effectiveStatus } from '../../harness/plan/plan-edit.js';
import { BREADCRUMB_EVENT } from './pre-compact.js';

/** agentm's promotion cursor: a decimal byte offset into the progress log, then a line feed. Always in the repo. */
export const PROMOTION_CURSOR = '.promoted-progress-cursor';

/** The cursor's offset: a non-negative whole number, else 0 (agentm: absent or invalid → 0). */
export function parseCursor(text: string | undefined): number {
  const t = text?.trim() ?? '';
  return /^\d+$/.test(t) ? Number(t) : 0;
}

/**
 * The progress written since `cursor` (a byte offset, agentm's unit), decoded as UTF-8 (a cut inside a
 * character reads as U+FFFD, as agentm's does), and the offset the cursor moves to; undefined when there
 * is nothing new (cursor at or past the end, as agentm: a cursor past a truncated log waits for it).
 */
export function progressSince(progress: string, cursor: number): { text: string; end: number } | undefined {
  const bytes = Buffer.from(progress, 'utf8');
  if (cursor >= bytes.length) return undefined;
  return { text: bytes.subarray(cursor).toString('utf8'), end: bytes.length };
}

/** The cursor as read: its offset and the hash a compare-and-swap advance expects (`null`: no file yet). */
export interface PromotionCursor {
  readonly path: string;
  readonly offset: number;
  readonly hash: string | null;
}

export async function readPromotionCursor(projectRoot: string): Promise<PromotionCursor> {
  const path = join(localHarnessDir(projectRoot), PROMOTION_CURSOR);
  try {
    const text = await readFile(path, 'utf8');
    return { path, offset: parseCursor(text), hash: contentHash(text) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path, offset: 0, hash: null };
    throw error;
  }
}

/**
 * Moves the cursor to `end` with a compare-and-swap against what was read, under the lock of the repo's
 * `.harness/` (the state write path). Returns false when another writer moved it first (a concurrent
 * Stop hook that promoted the same progress; its note has the same name, so nothing is saved twice).
 */
export async function advancePromotionCursor(cursor: PromotionCursor, end: number, lockRoot: string): Promise<boolean> {
  try {
    await lockedCasWrite(join(cursor.path, '..'), cursor.path, `${end}\n`, {
      expectHash: cursor.hash,
      label: `.harness/${PROMOTION_CURSOR}`,
      lock: { lockRoot },
    });
    return true;
  } catch (error) {
    if (error instanceof ConcurrentModificationError) return false;
    throw error;
  }
}

/** Steps done out of those settled (done or cancelled): how sure the promotion is that the plan did what it meant. */
export function promotionConfidence(doc: PlanDocument): number | undefined {
  const statuses = doc.steps.map((s) => effectiveStatus(doc, s));
  const done = statuses.filter((s) => s === 'done').length;
  const settled = done + statuses.filter((s) => s === 'cancelled').length;
  return settled === 0 ? undefined : Math.round((done / settled) * 100) / 100;
}

const CHECKBOX: Readonly<Record<string, string>> = { done: 'x', cancelled: '-', failed: '!', blocked: '?' };

/**
 * The memory a finished plan leaves: its goal, its steps as they ended, and what the new progress says
 * in words — the notes and decisions of a structured log (never tool results or errors, which carry
 * command output, nor breadcrumbs), or a free-form log as written (agentm's progress files). Undefined
 * when the new progress holds nothing of that kind (only breadcrumbs or tool results since the last
 * promotion). Pure.
 */
export function promotionBody(doc: PlanDocument, planName: string, newProgress: string): string | undefined {
  const observations = parseProgress(newProgress);
  let said: string;
  if (observations.length === 0) {
    said = newProgress.trim() === '' ? '' : `## Log\n\n${newProgress.trim()}\n`;
  } else {
    const words = observations.filter(
      (o) => (o.kind === 'note' || o.kind === 'decision') && o.data['event'] !== BREADCRUMB_EVENT && o.text !== '',
    );
    said =
      words.length === 0
        ? ''
        : `## Notes and decisions\n\n${words.map((o) => `- ${o.time} · ${o.step} · ${o.text.replace(/\n/g, '\n  ')}`).join('\n')}\n`;
  }
  const meaningful = said !== '' || observations.some((o) => o.kind === 'transition');
  if (!meaningful) return undefined;
  const title = planName === 'PLAN' ? 'Plan' : `Plan ${planName}`;
  const steps = doc.steps.map((s) => {
    const status = effectiveStatus(doc, s);
    return `- [${CHECKBOX[status] ?? ' '}] ${s.title} (\`${s.id}\`${status === 'done' ? '' : `, ${status}`})`;
  });
  return [
    `# ${title} done`,
    '',
    ...(doc.meta.goal ? [`Goal: ${doc.meta.goal}`, ''] : []),
    ...(steps.length > 0 ? ['## Steps', '', ...steps, ''] : []),
    ...(said !== '' ? [said] : []),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

/** The note's slug: `plan-<name>-done-<8 hex of the body>`, the same for the same promotion (a retry finds it saved). */
export function promotionSlug(planName: string, body: string): string {
  const name = planName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const hash = contentHash(body).slice(0, 8);
  return planName === 'PLAN' || name === '' ? `plan-done-${hash}` : `plan-${name}-done-${hash}`;
}
