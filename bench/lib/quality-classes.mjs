/**
 * The planted query classes of the recall-quality vault. Each plants notes (and progress entries) in a
 * QualityVault and registers queries written from what it planted — key words taken from the planted
 * text, never from any engine's output — with graded judgments: 3 for the answer, 1 for a related
 * memory, 0 (unlisted) for the rest; `forbidden` lists what must never be returned.
 */
import { compactDate, DAY, HOUR, localDate, slugOf } from './quality-vault.mjs';

const title = (v, extra = []) => [...v.filler(v.int(2, 4)), ...extra].join(' ');

/** 2 or 3 of the key words, sometimes with a common word the answer also contains. */
function queryWords(v, keys, answerWords = []) {
  const words = keys.slice(0, v.chance(0.5) ? 2 : 3);
  if (answerWords.length > 0 && v.chance(0.3)) words.push(v.pick(answerWords));
  return words;
}

const owned = (v) => (v.chance(0.75) ? v.project() : '');

export const QUERY_CLASSES = {
  /** A fact stated in one note; notes sharing one of its key words are distractors. */
  keyword(v) {
    const owner = owned(v);
    const keys = v.rare(3);
    const heading = title(v);
    const target = v.note({ owner, title: heading, body: v.prose(keys, v.int(60, 180)) });
    for (const key of keys)
      v.note({ owner: v.chance(0.5) ? owner : owned(v), title: title(v), body: v.prose([key], v.int(60, 180)) });
    v.query('keyword', owner || v.project(), queryWords(v, keys, heading.split(' ')), [[target, 3]]);
  },

  /** The same topic in two projects with different specifics: the current project's note answers. */
  'two-projects'(v) {
    const p = v.project();
    const q = v.otherProject(p);
    const topic = v.rare(3);
    const mine = v.note({ owner: p, title: title(v), body: v.prose([...topic, ...v.rare(2)], v.int(50, 150)) });
    v.note({ owner: q, title: title(v), body: v.prose([...topic, ...v.rare(2)], v.int(50, 150)) });
    const general = v.chance(0.5)
      ? v.note({ owner: '', title: title(v), body: v.prose(topic, v.int(50, 150)) })
      : undefined;
    v.query('two-projects', p, queryWords(v, topic), [
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
    v.query('supersession', owner || v.project(), queryWords(v, topic), [[fresh, 3]], [stale]);
  },

  /** A decision revised over time in separate notes (no supersedes): the latest answers, earlier ones relate. */
  'revised-decision'(v) {
    const p = v.project();
    const topic = v.rare(3);
    let at = v.ago(v.int(0, 200));
    const keys = [];
    for (let n = 0; n < 3; n++) {
      keys.push(
        v.note({
          owner: p,
          type: 'convention',
          title: title(v),
          body: v.prose([...topic, ...v.rare(1)], v.int(40, 120)),
          updatedMs: at,
        }),
      );
      at -= v.int(15, 90) * DAY;
    }
    v.query('revised-decision', p, queryWords(v, topic), [
      [keys[0], 3],
      [keys[1], 1],
      [keys[2], 1],
    ]);
  },

  /**
   * A note, and the harness's record of the work on its subject: a named plan (its PLAN file, goal and
   * steps naming the subject) and that plan's progress entries repeating the note's key words.
   */
  'log-distractors'(v) {
    const p = v.project();
    const keys = v.rare(3);
    const target = v.note({ owner: p, title: title(v), body: v.prose(keys, v.int(60, 160)) });
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
    v.query('log-distractors', p, queryWords(v, keys), [[target, 3]]);
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
    v.query('near-duplicates', p, [keys[2], ...queryWords(v, keys.slice(0, 2))], [[target, 3]], [inbox]);
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
    v.query('conflict-copies', owner || v.project(), queryWords(v, keys), [[target, 3]], copies);
  },

  /** Words that appear only in a note's file name (its slug) or only in its title. */
  'slug-title'(v, i) {
    const owner = owned(v);
    const words = v.rare(2);
    const body = v.prose([], v.int(50, 150));
    const target =
      i % 2 === 0
        ? v.note({ owner, title: title(v), slug: slugOf([v.commonWord(), ...words].join(' ')), body })
        : v.note({ owner, title: title(v, words), slug: slugOf(v.filler(3).join(' ')), body });
    v.note({ owner: owned(v), title: title(v), body: v.prose([words[0]], v.int(50, 150)) });
    v.query('slug-title', owner || v.project(), words, [[target, 3]]);
  },

  /** A fact recorded only in the harness log (an episode): notes sharing one key word are distractors. */
  'log-answers'(v) {
    const p = v.project();
    const keys = v.rare(3);
    const plan = v.chance(0.5) ? slugOf(`${v.commonWord()} ${v.commonWord()}`) : undefined;
    const kind = v.pick(['note', 'decision', 'tool_result']);
    const answer = v.episode(p, v.ago(v.random() * 30), kind, v.prose(keys, v.int(12, 30)), plan);
    v.note({ owner: p, title: title(v), body: v.prose([keys[0]], v.int(60, 160)) });
    v.query('log-answers', p, queryWords(v, keys), [[answer, 3]]);
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
        if (v.chance(0.4))
          v.episode(p, at, 'transition', v.pick(['ready → running', 'running → done', 'running → failed']), plan);
        else v.episode(p, at, 'tool_result', v.prose([], v.int(8, 30)), plan);
      }
      v.plan(p, plan, v.prose([], v.int(5, 12)), [v.prose([], 6), v.prose([], 6), v.prose([], 6)], start);
    }
  }
}

function gaussian(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
