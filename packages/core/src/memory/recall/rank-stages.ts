/**
 * The last stages of ranking, on the best few candidates only (they read titles and openings). Pure.
 * - Phrase credit: relevance × (1 + phrase × the share of the query's neighbouring word pairs found side
 *   by side, in either order, in the memory's title and opening).
 * - Revisions by structure: notes in one folder whose names differ only by a revision suffix (`x`,
 *   `x-v2`, `x-revised`; `x-2` or `x-2026-03-01` beside `x`) are one note over time. Its latest revision
 *   (by update time) takes the best score of the family, and the earlier ones keep `revisionDecay` of
 *   theirs: the current version answers, whether or not it is the newest memory around. Names that differ
 *   only by a number or a date, without the plain name beside them, are a series (`session-14`, daily
 *   notes, `standup-2026-03-01`, a chat per day), each note its own.
 */
import { EPISODE_KIND } from '../documents/document.js';
import { TermScanner } from '../indexing/term-scanner.js';

/** What the stages read of a document. */
export interface StageDoc {
  readonly id: string;
  readonly locator: string;
  readonly kind: string;
  readonly title: string;
  readonly updatedMs: number;
  /** The opening of the text (the index keeps it); else `text` is read. */
  readonly preview?: string | undefined;
  readonly text?: string | undefined;
}

interface Scored {
  readonly doc: StageDoc;
  readonly similarity: number;
  readonly score: number;
}

export interface RefineOptions<R> {
  readonly terms: readonly string[];
  readonly phrase: number;
  readonly revisionDecay: number;
  /** The score of a candidate whose relevance became `similarity`. */
  readonly rescore: (r: R, similarity: number) => number;
}

/** A name's revision marker: explicit (`-v2`, `-revised`), or a series' (a bare number `-2`, a date `-2026-03-01`). */
const MARKED = /-(?:v\d{1,3}|revised|updated|new|final|latest)(?:-\d{1,3})?$/;
const SERIES = /-\d{1,2}$|-\d{4}-?\d{2}-?\d{2}$/;

/**
 * The family a note belongs to across revisions (`dir/name` without its revision marker) and whether
 * the marker is only a number or a date; undefined for an episode. A numbered or dated name is a
 * revision only beside its plain original (`x`, `x-2`, `x-2026-03-01`); alone, `session-15` and
 * `jon-nate-2025-05-13` are each one of a series — what a daily note, a standup or a chat per session is.
 */
export function revisionFamily(
  doc: Pick<StageDoc, 'id' | 'locator' | 'kind'>,
): { family: string; numbered: boolean } | undefined {
  if (doc.kind === EPISODE_KIND || doc.id !== doc.locator) return undefined;
  const slash = doc.locator.lastIndexOf('/');
  const dir = doc.locator.slice(0, slash + 1);
  const name = doc.locator.slice(slash + 1).replace(/\.md$/i, '');
  const marked = name.replace(MARKED, '');
  if (marked !== name && marked !== '') return { family: `${dir}${marked}`, numbered: false };
  const numbered = name.replace(SERIES, '');
  if (numbered !== name && numbered !== '') return { family: `${dir}${numbered}`, numbered: true };
  return { family: `${dir}${name}`, numbered: false };
}

/**
 * Terms of the titles and openings phrase credit reads, by id, and the scanner that finds them (the
 * index's fast tokenizer: a surface form is stemmed once per process, not once per answer). Started
 * over past PHRASE_TERMS terms, so a long-lived server's dictionary stays bounded.
 */
const PHRASE_TERMS = 200_000;
let phraseIds = new Map<string, number>();
const internPhraseTerm = (term: string) => {
  let id = phraseIds.get(term);
  if (id === undefined) phraseIds.set(term, (id = phraseIds.size));
  return id;
};
let phraseScanner = new TermScanner(internPhraseTerm);

/** Share of the query's neighbouring term pairs that stand side by side (either order) in `text`. */
export function phraseShare(terms: readonly string[], text: string): number {
  if (terms.length < 2) return 0;
  if (phraseIds.size > PHRASE_TERMS) {
    phraseIds = new Map();
    phraseScanner = new TermScanner(internPhraseTerm);
  }
  // Pairs as one number (two ids below 2^21: exact in a double), both orders.
  const pair = (a: number, b: number) => a * 2_097_152 + b;
  const ids = terms.map(internPhraseTerm);
  const wanted = new Map<number, number>();
  for (let i = 1; i < ids.length; i++) {
    wanted.set(pair(ids[i - 1]!, ids[i]!), i);
    wanted.set(pair(ids[i]!, ids[i - 1]!), i);
  }
  const seen = new Set<number>();
  let previous = -1;
  phraseScanner.scan(text, (id) => {
    if (previous >= 0) {
      const at = wanted.get(pair(previous, id));
      if (at !== undefined) seen.add(at);
    }
    previous = id;
  });
  return seen.size / (terms.length - 1);
}

/** Applies the phrase credit and the revision rule to ranked candidates (best first); returns them re-sorted. */
export function refineTop<R extends Scored>(top: readonly R[], options: RefineOptions<R>): R[] {
  let out: R[] = top.map((r) => {
    if (options.phrase <= 0 || r.similarity <= 0) return r;
    const share = phraseShare(options.terms, `${r.doc.title}\n${r.doc.preview ?? r.doc.text?.slice(0, 600) ?? ''}`);
    if (share === 0) return r;
    // The credit goes to the score; `similarity` stays the lexical relevance.
    return { ...r, score: options.rescore(r, r.similarity * (1 + options.phrase * share)) };
  });
  const families = new Map<string, Array<{ r: R; numbered: boolean }>>();
  for (const r of out) {
    const f = revisionFamily(r.doc);
    if (f !== undefined) families.set(f.family, [...(families.get(f.family) ?? []), { r, numbered: f.numbered }]);
  }
  const replaced = new Map<R, R>();
  for (const entries of families.values()) {
    // Numbered and dated names count only beside an original of the family's own name.
    const original = entries.some((e) => !e.numbered);
    const members = entries.filter((e) => original || !e.numbered).map((e) => e.r);
    if (members.length < 2) continue;
    const latest = members.reduce((a, b) => (b.doc.updatedMs > a.doc.updatedMs ? b : a));
    const best = Math.max(...members.map((m) => m.score));
    for (const m of members)
      replaced.set(
        m,
        m === latest ? { ...m, score: Math.max(m.score, best) } : { ...m, score: m.score * options.revisionDecay },
      );
  }
  if (replaced.size > 0) out = out.map((r) => replaced.get(r) ?? r);
  return out.sort((a, b) => b.score - a.score || b.doc.updatedMs - a.doc.updatedMs);
}
