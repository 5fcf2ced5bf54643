/**
 * The `talk` proxy source: LoCoMo-like long conversations between pairs of friends over many months
 * (20–26 dated chats a pair, 15–30 turns a chat: greetings, small talk, news told with a relative time
 * — "yesterday", "last weekend" — the friend's answer that echoes the news without adding to it, details
 * a turn later, goodbyes), and questions in LoCoMo's classes and proportions: single-hop (55 %),
 * temporal (21 %), multi-hop across chats (18 %) and open-ended inference (6 %), each naming the person.
 * Written independently of the ranking and of the other generators.
 *
 * Stored two ways, as a user of a memory tool would keep a chat log:
 *   turn     one note per turn: `memory/reference/<speaker>-<yyyy-mm-dd>-<nn>.md`, the body
 *            `Caroline: I went to a support group yesterday…`, created/updated the chat's date, tags
 *            `[conversation, <a>-<b>]` (the date is in the file name and the frontmatter, not the body)
 *   session  one note per chat: `memory/reference/<a>-<b>-<yyyy-mm-dd>.md`, `# Caroline and Melanie,
 *            8 May 2023` then one `Name: text` line per turn
 * Grades: 3 a turn that answers; 2 the turn with the rest of a story, or an open question's evidence;
 * 1 the detail behind an open question's evidence. A chat is graded by its best turn.
 */
import { localDate } from './quality-vault.mjs';
import { NoteWriter } from './quality-notes.mjs';
import {
  CATEGORY_QUESTIONS,
  CLOSERS,
  EVENTS,
  FACTS,
  FAREWELLS,
  FEELINGS,
  FOLLOW_UPS,
  OPEN_QUESTIONS,
  OPENERS,
  PEOPLE,
  PRONOUNS,
  REACTIONS,
  REPLIES,
  SELF_SHARE,
  SMALL_TALK,
  WHEN,
} from './proxy-talk-life.mjs';
import { capital, chance, slugify } from './proxy-text.mjs';

export const TALK_CLASSES = ['single-hop', 'temporal', 'multi-hop', 'open-ended'];
const DAY = 86_400_000;
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

const fill = (t, values) => t.replace(/\{(\w+)\}/g, (all, k) => (k in values ? values[k] : all));

function person(c, [name, gender]) {
  const facts = FACTS.filter((f) => c.maybe(f.key === 'job' ? 1 : 0.55)).map((f) => ({ ...f, value: c.pick(f.x) }));
  const kids = facts.some((f) => f.key === 'kids');
  const dog = facts.some((f) => f.key === 'pet');
  const events = EVENTS.filter((e) => (kids || !e.cats.includes('kids')) && (dog || e.id !== 'vet'));
  const cats = [...new Set(events.flatMap((e) => e.cats))];
  const loves = new Set(c.some(cats, 3));
  const ordered = c
    .shuffle(events)
    .sort((a, b) => (b.cats.some((x) => loves.has(x)) ? 1 : 0) - (a.cats.some((x) => loves.has(x)) ? 1 : 0));
  return { name, ...PRONOUNS[gender], facts, events: ordered.slice(0, c.int(20, 28)) };
}

/**
 * Plans `pairs` conversations from `startMs`: `[{ a, b, sessions: [{ timeMs, turns: [{ speaker, text }] }] }]`
 * and the questions over them, each with its evidence as `[pair, session, turn, grade]`.
 */
export function planTalks(seed, pairs, startMs) {
  const c = chance(seed);
  const names = c.shuffle(PEOPLE);
  const plan = [];
  const questions = [];
  for (let p = 0; p < pairs; p++) {
    const a = person(c, names[(2 * p) % names.length]);
    const b = person(c, names[(2 * p + 1) % names.length]);
    const n = c.int(20, 26);
    const times = [];
    let t = startMs + c.int(0, 60) * DAY;
    for (let s = 0; s < n; s++) times.push((t += c.int(6, 21) * DAY + c.int(-3, 3) * 3_600_000));
    // What each chat brings up: every event and fact of both, spread over the chats.
    const topics = Array.from({ length: n }, () => []);
    for (const [who, other] of [
      [a, b],
      [b, a],
    ]) {
      for (const e of who.events) topics[c.int(0, n - 1)].push({ kind: 'event', who, other, e, when: c.pick(WHEN) });
      for (const f of who.facts) topics[c.int(0, n - 1)].push({ kind: 'fact', who, other, f });
    }
    const told = [];
    const sessions = topics.map((items, s) =>
      chat(c, a, b, c.shuffle(items), times[s], (item, turns) => told.push({ ...item, s, ...turns })),
    );
    plan.push({ a, b, sessions });
    questions.push(...ask(c, p, told, [a, b]));
  }
  return { plan, questions };
}

/** One chat's turns: greetings, the topics (with `record(item, turns)` told where each landed), goodbyes. */
function chat(c, a, b, items, timeMs, record) {
  const turns = [];
  const small = c.shuffle(SMALL_TALK);
  const say = (who, other, text) =>
    turns.push({ speaker: who.name, text: capital(fill(text, { friend: other.name })) }) - 1;
  const [first, second] = c.maybe(0.5) ? [a, b] : [b, a];
  say(first, second, c.pick(OPENERS));
  say(second, first, c.pick(REPLIES));
  for (const item of items) {
    if (turns.length > 25) break; // the rest is not told: no question asks about it
    const { who, other } = item;
    if (item.kind === 'fact') {
      const at = say(who, other, fill(c.pick(item.f.say), { x: item.f.value }));
      say(other, who, c.pick(REACTIONS));
      record(item, { at });
      continue;
    }
    const x = c.pick(item.e.x);
    const at = say(who, other, fill(c.pick(item.e.say), { when: item.when[0], x, ...who }));
    say(other, who, c.maybe(0.7) ? c.pick(item.e.echo) : c.pick(REACTIONS));
    const detail = say(who, other, fill(c.pick(item.e.detail), { x, ...who }));
    if (c.maybe(0.5)) {
      say(other, who, c.pick(FOLLOW_UPS));
      say(who, other, c.pick(FEELINGS));
    }
    if (c.maybe(0.5)) say(other, who, `${c.pick(REACTIONS)} ${c.maybe(0.5) ? c.pick(SELF_SHARE) : ''}`.trim());
    record({ ...item, x }, { at, detail });
  }
  while (turns.length < 13 || (small.length > 4 && c.maybe(0.3))) {
    const [p, q] = c.maybe(0.5) ? [a, b] : [b, a];
    say(p, q, small.pop());
    say(q, p, c.pick(REACTIONS));
  }
  say(first, second, c.pick(CLOSERS));
  say(second, first, c.pick(FAREWELLS));
  return { timeMs, turns };
}

/** The questions about one pair (about 45: LoCoMo's mix), each with its evidence turns and grades. */
function ask(c, p, told, people) {
  const out = [];
  const q = (cls, who, template, evidence) =>
    out.push({
      cls,
      text: fill(template, { name: who.name, ...who }),
      evidence: evidence.map(([s, t, g]) => [p, s, t, g]),
    });
  const events = c.shuffle(told.filter((i) => i.kind === 'event'));
  const facts = c.shuffle(told.filter((i) => i.kind === 'fact'));
  for (const i of facts.slice(0, 13)) q('single-hop', i.who, c.pick(i.f.q), [[i.s, i.at, 3]]);
  for (const i of events.slice(0, 12))
    q('single-hop', i.who, i.e.single, [
      [i.s, i.detail, 3],
      [i.s, i.at, 2],
    ]);
  for (const i of events.slice(12, 21)) q('temporal', i.who, `When did {name} ${i.e.when}?`, [[i.s, i.at, 3]]);
  const gathered = [];
  for (const who of people)
    for (const cat of Object.keys(CATEGORY_QUESTIONS)) {
      const these = told.filter((i) => i.kind === 'event' && i.who === who && i.e.cats.includes(cat));
      if (these.length >= 2) gathered.push({ who, cat, these });
    }
  const picked = c.shuffle(gathered);
  for (const g of picked.slice(0, 8))
    q(
      'multi-hop',
      g.who,
      c.pick(CATEGORY_QUESTIONS[g.cat]),
      g.these.flatMap((i) => [
        [i.s, i.at, 3],
        [i.s, i.detail, 2],
      ]),
    );
  for (const g of picked.slice(8, 11))
    q(
      'open-ended',
      g.who,
      c.pick(OPEN_QUESTIONS[g.cat]),
      g.these.flatMap((i) => [
        [i.s, i.at, 2],
        [i.s, i.detail, 1],
      ]),
    );
  return out;
}

const longDate = (ms) => {
  const d = new Date(ms);
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
};

/**
 * Writes the planned conversations under `root` at one granularity (`turn` or `session`); returns
 * `{ queries, notes }` with the questions' judgments keyed by note.
 */
export function writeTalks(root, { plan, questions }, granularity, idBase = 0) {
  const w = new NoteWriter(root);
  const keys = new Map(); // "p/s/t" → key
  plan.forEach(({ a, b, sessions }, p) => {
    const pairTag = `${slugify(a.name)}-${slugify(b.name)}`;
    sessions.forEach(({ timeMs, turns }, s) => {
      const date = localDate(timeMs);
      if (granularity === 'session') {
        const key = `memory/reference/${pairTag}-${date}.md`;
        const lines = turns.map((t) => `${t.speaker}: ${t.text}`);
        w.note({
          key,
          body: `# ${a.name} and ${b.name}, ${longDate(timeMs)}\n\n${lines.join('\n')}`,
          timeMs,
          tags: ['conversation', pairTag],
        });
        turns.forEach((_, t) => keys.set(`${p}/${s}/${t}`, key));
        return;
      }
      turns.forEach((turn, t) => {
        const key = `memory/reference/${slugify(turn.speaker)}-${date}-${String(t + 1).padStart(2, '0')}.md`;
        w.note({
          key,
          body: `${turn.speaker}: ${turn.text}`,
          timeMs: timeMs + t * 60_000,
          tags: ['conversation', pairTag],
        });
        keys.set(`${p}/${s}/${t}`, key);
      });
    });
  });
  const queries = questions.map((question, i) => {
    const judgments = new Map();
    for (const [p, s, t, g] of question.evidence) {
      const key = keys.get(`${p}/${s}/${t}`);
      judgments.set(key, Math.max(judgments.get(key) ?? 0, g));
    }
    return { id: idBase + i, cls: question.cls, text: question.text, judgments, forbidden: new Set() };
  });
  return { queries, notes: w.notes };
}
