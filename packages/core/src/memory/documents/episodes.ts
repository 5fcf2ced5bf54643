import { contentHash } from '../../write-protocol/content-hash.js';
import { EPISODE_KIND, type IndexDocument } from './document.js';
import { normalizeForFingerprint } from '../notes/fingerprint.js';
import { findTimestamp } from './timestamps.js';
import { readProgressEntry } from './bookkeeping.js';

/** One entry of a progress file: a heading section (its own paragraphs) or a top-level list item. */
export interface Episode {
  /** `<locator key>#<16 hex>`: sha256 of the file key and the normalized text, so edits elsewhere keep it. */
  readonly id: string;
  readonly locator: string;
  readonly owner: string;
  readonly title: string;
  /**
   * The entry's text as a person reads it: list marker, timestamp and inline fields removed (its step
   * and what happened first), continuation lines dedented.
   */
  readonly text: string;
  /** Its own timestamp, else its heading's, else the fallback (the file's mtime). */
  readonly timeMs: number;
  /** Whether `timeMs` came from the entry or its heading (not the fallback). */
  readonly timestamped: boolean;
  /** 1-based line of the entry's first line. */
  readonly line: number;
  readonly fingerprint: string;
}

export interface EpisodeSource {
  readonly locator: string;
  readonly owner: string;
  /** Time for entries with no timestamp of their own or of their heading (usually the file's mtime). */
  readonly fallbackMs: number;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const TITLE_MAX = 100;

interface Block {
  kind: 'item' | 'section';
  line: number;
  lines: string[];
  ownTimeMs: number | undefined;
  /** Sections: list items under it; a heading with items and no paragraphs is a group, not an entry. */
  items: number;
  level: number;
}

/**
 * Splits a progress file into episodes. Pure. A heading starts a section; the section's paragraphs
 * (not its list items) are one episode headed by the heading; each top-level list item (with its
 * indented continuation) is one episode. Code fences are opaque. Frontmatter is skipped. A heading
 * with only list items under it is a date group: its timestamp is inherited by the items. The
 * harness's status bookkeeping (transitions, bare result heads) is left out.
 */
export function parseEpisodes(text: string, source: EpisodeSource): Episode[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = skipFrontmatter(lines);
  const blocks: Block[] = [];
  let section: Block | undefined;
  let item: Block | undefined;
  let sectionTime: number | undefined;
  let inFence = false;
  let pendingBlank = 0;

  const closeItem = () => {
    if (item) {
      blocks.push({ ...item, ownTimeMs: item.ownTimeMs ?? sectionTime });
      if (section) section.items++;
    }
    item = undefined;
  };
  const closeSection = () => {
    closeItem();
    if (section) blocks.push(section);
    section = undefined;
  };

  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (inFence || FENCE.test(line)) {
      if (FENCE.test(line)) inFence = !inFence;
      appendTo(item ?? (section ??= newSection(i)), line, pendingBlank);
      pendingBlank = 0;
      continue;
    }
    if (line.trim() === '') {
      pendingBlank++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      closeSection();
      const found = findTimestamp(heading[2]!);
      sectionTime = found?.ms;
      section = {
        kind: 'section',
        line: i + 1,
        lines: [line],
        ownTimeMs: found?.ms,
        items: 0,
        level: heading[1]!.length,
      };
      pendingBlank = 0;
      continue;
    }
    const listItem = LIST_ITEM.exec(line);
    if (listItem) {
      closeItem();
      const found = findTimestamp(listItem[1]!);
      item = { kind: 'item', line: i + 1, lines: [listItem[1]!], ownTimeMs: found?.ms, items: 0, level: 0 };
      pendingBlank = 0;
      continue;
    }
    const indented = /^[ \t]/.test(line);
    if (item && (indented || pendingBlank === 0)) {
      appendTo(item, line.replace(/^(?: {1,4}|\t)/, ''), pendingBlank);
    } else {
      closeItem();
      appendTo((section ??= newSection(i)), line, pendingBlank);
    }
    pendingBlank = 0;
  }
  closeSection();
  return toEpisodes(
    blocks.sort((a, b) => a.line - b.line),
    source,
  );
}

function newSection(i: number): Block {
  return { kind: 'section', line: i + 1, lines: [], ownTimeMs: undefined, items: 0, level: 0 };
}

function appendTo(block: Block, line: string, blanks: number): void {
  if (block.lines.length > 0) for (let b = 0; b < blanks; b++) block.lines.push('');
  block.lines.push(line);
}

function skipFrontmatter(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.trim() === '---') return i + 1;
  return 0;
}

function toEpisodes(blocks: readonly Block[], source: EpisodeSource): Episode[] {
  const seen = new Map<string, number>();
  const episodes: Episode[] = [];
  for (const block of blocks) {
    // A heading alone over list items (a date group) or a level-1 heading (the file's title) is
    // structure, not an entry; a bare level-2+ heading with nothing under it is an entry.
    const headingOnly = block.level > 0 && block.lines.filter((l) => l.trim() !== '').length === 1;
    if (block.kind === 'section' && headingOnly && (block.items > 0 || block.level === 1)) continue;
    const raw = block.lines.join('\n').trim();
    if (raw === '') continue;
    // Bookkeeping (status changes, in any harness's form or by hand) is not memory (bookkeeping.ts): no
    // episode, so no recall result and no belief. What is memory reads as a person would write it.
    const read = readProgressEntry(raw);
    if (read.bookkeeping) continue;
    const text = read.text;
    const normalized = normalizeForFingerprint(raw);
    const dup = seen.get(normalized) ?? 0;
    seen.set(normalized, dup + 1);
    const hash = contentHash(`${source.locator}\n${normalized}${dup > 0 ? `\n#${dup}` : ''}`);
    episodes.push({
      id: `${source.locator}#${hash.slice(0, 16)}`,
      locator: source.locator,
      owner: source.owner,
      title: read.title.length > TITLE_MAX ? `${read.title.slice(0, TITLE_MAX - 1)}…` : read.title,
      text,
      timeMs: block.ownTimeMs ?? source.fallbackMs,
      timestamped: block.ownTimeMs !== undefined,
      line: block.line,
      // noteFingerprint(text), without normalizing twice.
      fingerprint: contentHash(normalized),
    });
  }
  return episodes;
}

/** An episode as an index document (kind `episode`, status `active`). */
export function episodeDocument(episode: Episode): IndexDocument {
  return {
    id: episode.id,
    locator: episode.locator,
    owner: episode.owner,
    kind: EPISODE_KIND,
    status: 'active',
    tags: [],
    alwaysLoad: false,
    createdMs: episode.timeMs,
    updatedMs: episode.timeMs,
    title: episode.title,
    // Made from the entry's first line, which is in its text: not ranked as a title.
    untitled: true,
    text: episode.text,
    fingerprint: episode.fingerprint,
    derivedFrom: [],
  };
}
