/**
 * The planted query classes of the agent-notes source (a vault of agentm notes, plans and progress
 * logs). Each plants notes (and progress entries) in a QualityVault and registers queries written from
 * what it planted — key words taken from the planted text, never from any engine's output — with graded
 * judgments: 3 for the answer, 1 for a related memory, 0 (unlisted) for the rest; `forbidden` lists what
 * must never be returned. Queries carry, beside their rare key words, words of the answer's own prose
 * that many other notes hold too (as people's questions do), and the distractors are as often newer than
 * the answer as older: neither matching any word nor being recent is enough.
 */
import { compactDate, DAY, HOUR, localDate, slugOf } from './quality-vault.mjs';

const title = (v, extra = []) => [...v.filler(v.int(2, 4)), ...extra].join(' ');

/** Words of `text` that are not keys (lower-case, as written). */
const proseWords = (text, keys) =>
  text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !keys.includes(w));

/** 1–3 of the key words and 1–2 other words of the answer's text (shared with many notes). */
function queryWords(v, keys, answerText) {
  const n = v.chance(0.3) ? 1 : v.chance(0.6) ? 2 : 3;
  const words = keys.slice(0, Math.min(n, keys.length));
  const prose = proseWords(answerText, keys);
  for (let i = v.int(1, 2); i > 0 && prose.length > 0; i--) words.push(v.pick(prose));
  return [...new Set(words)];
}

const owned = (v) => (v.chance(0.75) ? v.project() : '');

/** Notes sharing some of the keys (one or two each, often with the answer's prose words), of any age. */
function partials(v, owner, keys, text, n) {
  const prose = proseWords(text, keys);
  for (let i = 0; i < n; i++) {
    const some = [...keys].sort(() => v.random() - 0.5).slice(0, v.int(1, Math.max(1, keys.length - 1)));
    const borrowed = prose.filter(() => v.chance(0.2));
    v.note({
      owner: v.chance(0.6) ? owner : owned(v),
      title: title(v),
      body: v.prose([...some, ...borrowed], v.int(60, 180)),
    });
  }
}

export const QUERY_CLASSES = {
  /** A fact stated in one note; notes sharing one or two of its key words are distractors. */
  keyword(v) {
    const owner = owned(v);
    const keys = v.rare(3);
    const body = v.prose(keys, v.int(60, 180));
    const target = v.note({ owner, title: title(v), body });
    partials(v, owner, keys, body, 4);
    v.query('keyword', owner || v.project(), queryWords(v, keys, body), [[target, 3]]);
  },

  /** The same topic in two projects with different specifics: the current project's note answers. */
  'two-projects'(v) {
    const p = v.project();
    const q = v.otherProject(p);
    const topic = v.rare(3);
    const body = v.prose([...topic, ...v.rare(2)], v.int(50, 150));
    const mine = v.note({ owner: p, title: title(v), body });
    v.note({ owner: q, title: title(v), body: v.prose([...topic, ...v.rare(2)], v.int(50, 150)) });
    const general = v.chance(0.5)
      ? v.note({ owner: '', title: title(v), body: v.prose(topic, v.int(50, 150)) })
      : undefined;
    partials(v, p, topic, body, 2);
    v.query('two-projects', p, queryWords(v, topic, body), [
      [mine, 3],
      [general, 1],
    ]);
  },

  /**
   * A note and its newer supersession, in the three shapes a vault holds them: agentm's evolve (the
   * old text archived under memory/_archive with status superseded, the new note at the old path with
   * `supersedes:`), `save --supersedes` (a new note naming the old one, which stays active in place),
   * and a hand edit (the old note marked `status: superseded` in place, the new one beside it).
   */
  supersession(v, i) {
    const owner = owned(v);
    const topic = v.rare(3);
    const oldMs = v.ago(v.int(30, 365));
    const newMs = Math.min(v.now - HOUR, oldMs + v.int(5, 120) * DAY);
    const heading = title(v);
    const type = 'reference';
    const oldBody = v.prose([...topic, ...v.rare(2)], v.int(50, 150));
    const newBody = v.prose([...topic, ...v.rare(2)], v.int(50, 150));
    const shape = i % 3;
    let fresh;
    let stale;
    if (shape === 0) {
      const key = v.noteKey(owner, type, slugOf(heading));
      stale = `memory/_archive/${key}.${compactDate(newMs)}.md`;
      v.note({
        owner,
        type,
        key: stale,
        title: heading,
        body: oldBody,
        updatedMs: oldMs,
        status: 'superseded',
        extra: [`superseded_by: ${key}`, `superseded_at: ${localDate(newMs)}`, 'superseded_reason: revised'],
      });
      fresh = v.note({
        owner,
        type,
        key,
        title: heading,
        body: newBody,
        updatedMs: newMs,
        extra: [`supersedes: ${stale}`],
      });
    } else if (shape === 1) {
      stale = v.note({ owner, type, title: heading, body: oldBody, updatedMs: oldMs });
      fresh = v.note({
        owner,
        type,
        title: heading,
        slug: `${slugOf(heading)}-revised`,
        body: newBody,
        updatedMs: newMs,
        extra: [`supersedes: ${stale}`],
      });
    } else {
      const freshKey = v.noteKey(owner, type, `${slugOf(heading)}-v2`);
      stale = v.note({
        owner,
        type,
        title: heading,
        body: oldBody,
        updatedMs: oldMs,
        status: 'superseded',
        extra: [`superseded_by: ${freshKey}`],
      });
      fresh = v.note({ owner, type, key: freshKey, title: heading, body: newBody, updatedMs: newMs });
    }
    partials(v, owner, topic, newBody, 2);
    v.query('supersession', owner || v.project(), queryWords(v, topic, newBody), [[fresh, 3]], [stale]);
  },

  /**
   * A decision revised over time as new notes of the same name (`x`, then `x-v2`/`x-2`/`x-revised`, no
   * `supersedes:`): the latest revision answers and the earlier ones relate. Other notes on the subject
   * are as often newer than the latest revision: only the revisions' shared name tells which is current.
   */
  'revised-decision'(v, i) {
    const p = v.project();
    const topic = v.rare(3);
    const heading = title(v);
    const base = slugOf(heading);
    const suffixes = [
      ['', '-v2', '-v3'],
      ['', '-2', '-3'],
      ['', '-revised', '-revised-2'],
    ][i % 3];
    let at = v.ago(v.int(60, 300));
    const keys = [];
    let body;
    for (const suffix of suffixes) {
      body = v.prose([...topic, ...v.rare(1)], v.int(40, 120));
      keys.unshift(
        v.note({ owner: p, type: 'convention', title: heading, slug: `${base}${suffix}`, body, updatedMs: at }),
      );
      at = Math.min(v.now - HOUR, at + v.int(15, 90) * DAY);
    }
    partials(v, p, topic, body, 3);
    v.query('revised-decision', p, queryWords(v, topic, body), [
      [keys[0], 3],
      [keys[1], 1],
      [keys[2], 1],
    ]);
  },

  /**
   * A note, and the harness's record of the work on its subject: a named plan (its PLAN file, goal and
   * steps naming the subject) and that plan's progress entries repeating the note's key words — newer
   * than the note.
   */
  'log-distractors'(v) {
    const p = v.project();
    const keys = v.rare(3);
    const body = v.prose(keys, v.int(60, 160));
    const target = v.note({ owner: p, title: title(v), body, updatedMs: v.ago(v.int(20, 300)) });
    const plan = slugOf(`${v.commonWord()} ${keys[0]}`);
    const start = v.ago(v.random() * 20);
    const n = v.int(4, 8);
    for (let e = 0; e < n; e++) {
      const two = [...keys].sort(() => v.random() - 0.5).slice(0, 2);
      v.episode(p, start + e * v.int(2, 30) * 60_000, 'tool_result', v.prose(two, v.int(10, 30)), plan);
    }
    v.plan(
      p,
      plan,
      v.prose(keys.slice(0, 2), v.int(5, 12)),
      [v.prose([keys[0]], 6), v.prose([keys[1]], 6), v.prose([], 6)],
      start,
    );
    v.query('log-distractors', p, queryWords(v, keys, body), [[target, 3]]);
  },

  /**
   * Near-duplicates of the answer: the inbox capture it was filed from (the same text, one sentence
   * short) and a note made from the same template about another thing (one word different).
   */
  'near-duplicates'(v) {
    const p = v.project();
    const keys = v.rare(3);
    const other = v.rare(1)[0];
    const heading = title(v);
    const opening = v.prose(keys, v.int(8, 14));
    const rest = v.prose([], v.int(50, 140));
    // Filing a capture adds a sentence or edits one out, as often one as the other.
    const [filed, captured] = v.chance(0.5) ? [v.prose([], 8), ''] : ['', v.prose([], 8)];
    const target = v.note({ owner: p, title: heading, body: `${opening} ${filed} ${rest}` });
    const inbox = v.note({
      owner: p,
      key: `memory/_inbox/${slugOf(heading)}.md`,
      title: heading,
      body: `${opening} ${captured} ${rest}`,
    });
    v.note({ owner: p, title: heading, body: `${opening.replace(keys[2], other)} ${v.prose([], 8)} ${rest}` });
    // The query names what tells the answer from the template's other note (keys[2]).
    v.query('near-duplicates', p, [keys[2], ...queryWords(v, keys.slice(0, 2), rest)], [[target, 3]], [inbox]);
  },

  /** A note and the conflict copies sync tools left beside it (Syncthing, Dropbox, Obsidian Sync). */
  'conflict-copies'(v) {
    const owner = owned(v);
    const keys = v.rare(3);
    const updatedMs = v.randomAge();
    const text = v.prose(keys, v.int(60, 160));
    const heading = title(v);
    const target = v.note({ owner, title: heading, body: text, updatedMs });
    const stem = target.slice(0, -3);
    const at = new Date(Math.min(v.now - 60_000, updatedMs + v.int(1, 48) * HOUR));
    const stamp = `${compactDate(at.getTime())}-${String(at.getHours()).padStart(2, '0')}1010`;
    const names = [
      `${stem}.sync-conflict-${stamp}-ABCDEF7.md`,
      `${stem} (Sam's conflicted copy ${localDate(at.getTime())}).md`,
      `${stem} (Conflicted copy laptop ${stamp.replace('-', '')}).md`,
    ];
    const copies = names.filter(() => v.chance(0.6));
    if (copies.length === 0) copies.push(names[0]);
    // Another device's version of the same note, edited a little later: a few words changed, and a
    // sentence added or cut.
    const edited = (t) => {
      const changed = t.replace(/\b[a-z]+\b/g, (w) => (keys.includes(w) || !v.chance(0.05) ? w : v.commonWord()));
      return v.chance(0.5) ? `${changed} ${v.prose([], v.int(4, 10))}` : changed.replace(/ [^.]*\.$/, '');
    };
    for (const key of copies) v.note({ owner, key, title: heading, body: edited(text), updatedMs: at.getTime() });
    partials(v, owner, keys, text, 2);
    v.query('conflict-copies', owner || v.project(), queryWords(v, keys, text), [[target, 3]], copies);
  },

  /** Words that appear only in a note's file name (its slug) or only in its title; others hold them in prose. */
  'slug-title'(v, i) {
    const owner = owned(v);
    const words = v.rare(2);
    const body = v.prose([], v.int(50, 150));
    const target =
      i % 2 === 0
        ? v.note({ owner, title: title(v), slug: slugOf([v.commonWord(), ...words].join(' ')), body })
        : v.note({ owner, title: title(v, words), slug: slugOf(v.filler(3).join(' ')), body });
    v.note({ owner: owned(v), title: title(v), body: v.prose([words[0], words[0]], v.int(50, 150)) });
    v.note({ owner: owner || owned(v), title: title(v), body: v.prose([words[1]], v.int(30, 90)) });
    const prose = proseWords(body, words);
    v.query('slug-title', owner || v.project(), [...words, ...(v.chance(0.5) ? [v.pick(prose)] : [])], [[target, 3]]);
  },

  /** A fact recorded only in the harness log (an episode): notes sharing one key word are distractors. */
  'log-answers'(v) {
    const p = v.project();
    const keys = v.rare(3);
    const plan = v.chance(0.5) ? slugOf(`${v.commonWord()} ${v.commonWord()}`) : undefined;
    const kind = v.pick(['note', 'decision', 'tool_result']);
    const text = v.prose(keys, v.int(12, 30));
    const answer = v.episode(p, v.ago(v.random() * 30), kind, text, plan);
    partials(v, p, keys, text, 2);
    v.query('log-answers', p, queryWords(v, keys, text), [[answer, 3]]);
  },

  /**
   * Three words of the middle vocabulary that only the answer holds together; a dozen notes hold two
   * of them, several times each, most of them newer. Matching every word matters more than repeating
   * some.
   */
  'distractor-heavy'(v) {
    const owner = owned(v);
    const words = [v.pick(v.pools.mid), v.pick(v.pools.mid), v.pick(v.pools.mid)];
    const body = v.prose(words, v.int(60, 160));
    const target = v.note({ owner, title: title(v), body, updatedMs: v.ago(v.int(60, 365)) });
    for (let n = v.int(8, 14); n > 0; n--) {
      const two = [...words].sort(() => v.random() - 0.5).slice(0, 2);
      v.note({
        owner: v.chance(0.7) ? owner : owned(v),
        title: title(v),
        body: v.prose([...two, ...two, ...(v.chance(0.5) ? two : [])], v.int(40, 140)),
        updatedMs: v.ago(v.int(0, 200)),
      });
    }
    v.query('distractor-heavy', owner || v.project(), words, [[target, 3]]);
  },

  /**
   * A note about a subject whose plan step is named after it, and the step's bookkeeping in the log —
   * claims, transitions, releases, bare results — in today's format, an older AgentM's, agentm's
   * free-form sections and a person's own: none of it is memory.
   */
  bookkeeping(v, i) {
    const p = v.project();
    const keys = v.rare(2);
    const body = v.prose(keys, v.int(60, 160));
    const target = v.note({ owner: p, title: title(v), body, updatedMs: v.ago(v.int(10, 200)) });
    const plan = slugOf(`${v.commonWord()} ${keys[0]}`);
    const step = slugOf(keys.join(' '));
    const format = ['observation', 'legacy', 'agentm', 'hand'][i % 4];
    const lines = v.bookkeeping(p, plan, step, v.ago(v.random() * 10), format);
    v.query('bookkeeping', p, queryWords(v, keys, body), [[target, 3]], [], lines);
  },
};

/** Background: notes about nothing in particular, and each project's routine harness log. */
export function plantBackground(v, notes) {
  for (let i = 0; i < notes; i++) {
    const length = Math.max(20, Math.round(Math.exp(Math.log(110) + 0.6 * gaussian(v.random))));
    v.note({ owner: owned(v), title: title(v), body: v.prose([], length), tags: [v.commonWord(), v.commonWord()] });
  }
  for (const p of v.projects) {
    // The project's routine work: a few named plans, each with its PLAN file and its log.
    for (let n = 0; n < 5; n++) {
      const plan = slugOf(`${v.commonWord()} ${v.commonWord()} ${n}`);
      const start = v.ago(v.random() * 60);
      for (let e = 0; e < v.int(15, 40); e++) {
        const at = Math.min(v.now - 60_000, start + e * v.int(1, 20) * 60_000);
        if (v.chance(0.3))
          v.bookkeeping(p, plan, `s${v.int(1, 9)}`, at, v.pick(['observation', 'legacy', 'agentm', 'hand']));
        else v.episode(p, at, 'tool_result', v.prose([], v.int(8, 30)), plan);
      }
      v.plan(p, plan, v.prose([], v.int(5, 12)), [v.prose([], 6), v.prose([], 6), v.prose([], 6)], start);
    }
  }
}

function gaussian(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
