/**
 * The engine peer of the recall benchmarks: SQLite FTS5 through better-sqlite3, indexing the same
 * Markdown files the way Basic Memory does (models/search.py: a title column — the file name's stem
 * for a note without a `title:` field — and the note's content; `tokenize='unicode61 tokenchars 0x2F'`),
 * and querying the way it ranks (sqlite_search_repository.py: every word as a prefix term, ANDed; when
 * that finds nothing and the query has ≥ 3 words without numbers, the words ORed; ORDER BY bm25()).
 * Basic Memory's `prefix='1,2,3,4'` index only speeds prefix queries up, so the build here leaves it
 * out (a faster peer; the same results).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

// better-sqlite3 is an optional dependency: it compiles at install, and a machine without Node's headers
// (node-gyp would download them) installs without it. Say so, and how to build it, before any work.
try {
  new Database(':memory:').close();
} catch (error) {
  throw new Error(
    `SQLite FTS5 (better-sqlite3, an optional dependency) is not built on this machine: ${String(error.message).split('\n')[0]}. ` +
      "It compiles at install with node-gyp, which needs Node's headers: point it at them (npm_config_nodedir=<Node's prefix, e.g. /usr>) " +
      'and run `npx pnpm@10.34.8 rebuild better-sqlite3`',
  );
}

/** Basic Memory's relaxation stop words (search_query.py). */
const RELAXATION_STOPWORDS = new Set(
  (
    'a an and are as at be but by did do does for from had has have how i in is it of on or our that the their ' +
    'they this to was we were what when where which who whom whose why will with you your'
  ).split(' '),
);

/** Frontmatter fields the benchmarks filter or group on (a note without frontmatter has none). */
function frontmatter(text) {
  if (!text.startsWith('---\n')) return { fields: {}, body: text };
  const end = text.indexOf('\n---', 4);
  if (end < 0) return { fields: {}, body: text };
  const fields = {};
  for (const line of text.slice(4, end).split('\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
  }
  return { fields, body: text.slice(text.indexOf('\n', end + 1) + 1) };
}

/**
 * Builds an FTS5 index of every `.md` file under `root` (dot-directories skipped, nothing else: FTS5
 * knows nothing of archives, inboxes or conflict copies), reading each file on this thread, in one
 * transaction. Returns the open database.
 */
export function buildFts5(dbPath, root) {
  rmSync(dbPath, { force: true });
  rmSync(`${dbPath}-wal`, { force: true });
  rmSync(`${dbPath}-shm`, { force: true });
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(
    "CREATE VIRTUAL TABLE notes USING fts5(title, content, path UNINDEXED, status UNINDEXED, tokenize = 'unicode61 tokenchars 0x2F')",
  );
  const insert = db.prepare('INSERT INTO notes (title, content, path, status) VALUES (?, ?, ?, ?)');
  let files = 0;
  db.transaction(() => {
    const dirs = [''];
    while (dirs.length > 0) {
      const rel = dirs.pop();
      for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
        if (entry.name.startsWith('.')) continue;
        const key = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) dirs.push(key);
        else if (entry.name.endsWith('.md')) {
          const { fields, body } = frontmatter(readFileSync(join(root, key), 'utf8'));
          insert.run(fields.title ?? entry.name.slice(0, -3), body, key, fields.status ?? 'active');
          files++;
        }
      }
    }
  })();
  return { db, files };
}

/** The words of a query as Basic Memory splits them (edge punctuation stripped, lower-cased). */
function queryWords(text) {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[?!.,;:]+|[?!.,;:]+$/g, ''))
    .filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
}

/** Basic Memory's FTS5 expressions for plain words: the strict one, and the relaxed one (or undefined). */
export function basicMemoryQuery(text) {
  const words = queryWords(text);
  if (words.length === 0) return { strict: undefined, relaxed: undefined };
  const strict = words.map((w) => `${w}*`).join(' AND ');
  const eligible = words.length >= 3 && !words.some((w) => /^\p{N}+$/u.test(w));
  const pruned = words.filter((w) => !RELAXATION_STOPWORDS.has(w));
  const relaxed = eligible
    ? [...new Set(pruned.length > 0 ? pruned : words)].map((w) => `${w}*`).join(' OR ')
    : undefined;
  return { strict, relaxed };
}

/**
 * Searches like Basic Memory: the strict query, then the relaxed one when the strict one found
 * nothing. Rows `{ path, status, score }`, best first (bm25() is negative: lower is better).
 */
export function searchBasicMemory(db, text, limit) {
  const { strict, relaxed } = basicMemoryQuery(text);
  const statement = db.prepare(
    'SELECT path, status, bm25(notes) AS score FROM notes WHERE notes MATCH ? ORDER BY bm25(notes) LIMIT ?',
  );
  if (strict === undefined) return [];
  const rows = statement.all(strict, limit);
  return rows.length > 0 || relaxed === undefined ? rows : statement.all(relaxed, limit);
}

/**
 * A prepared any-word query (the words ORed, as AgentM's BM25 matches), for latency comparisons on the
 * same queries: `(text, limit) => rows`.
 */
export function anyWordSearch(db) {
  const statement = db.prepare(
    'SELECT path, bm25(notes) AS score FROM notes WHERE notes MATCH ? ORDER BY bm25(notes) LIMIT ?',
  );
  return (text, limit) => {
    const words = queryWords(text);
    return words.length === 0 ? [] : statement.all(words.map((w) => `"${w}"`).join(' OR '), limit);
  };
}
