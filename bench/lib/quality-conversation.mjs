/**
 * The long multi-session conversational-memory source of the recall-quality bench: dated chats between
 * two people over most of a year (18–26 sessions each, 14–24 turns a session), in which each tells the
 * other about life events (quality-dialogue-events.mjs) among greetings, reactions and small talk. Kept
 * as notes in one of two granularities — one note per turn (no heading: the turn is the note), or one
 * note per session (a heading naming the session and its date, then its turns) — with the same
 * questions: single-hop (one turn answers), multi-hop (every event of a kind, told in different
 * sessions), temporal ("When did …", answered by the turn that says it) and open-ended (a feeling said
 * in a later turn). Evidence sits anywhere in the months, never mostly at the end, and the other
 * speaker's replies repeat the event's words without answering.
 */
import { rng } from './corpus.mjs';
import { CHATTER, EVENTS, GROUP_QUESTIONS, NAMES } from './quality-dialogue-events.mjs';
import { fill, NoteWriter } from './quality-notes.mjs';

const DAY = 86_400_000;
const pad = (n) => String(n).padStart(2, '0');
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const spoken = (ms) => {
  const d = new Date(ms);
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
};

/**
 * Plans `conversations` chats (seeded): each a list of sessions `{ time, turns: [{ speaker, text,
 * evidence?: eventId }] }`, and the questions `{ cls, text, evidence: eventIds[], related: eventIds[] }`.
 * Events are numbered across the whole plan; a turn that mentions an earlier event again later (its pet,
 * its city) is `related` evidence of that event's single-hop question.
 */
export function planConversations(seed, conversations, start) {
  const random = rng(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chance = (p) => random() < p;
  const names = [...NAMES].sort(() => random() - 0.5);
  const chats = [];
  let eventId = 0;
  for (let c = 0; c < conversations; c++) {
    const people = [names[(2 * c) % names.length], names[(2 * c + 1) % names.length]];
    const sessionCount = int(18, 26);
    const sessions = [];
    let at = start + int(0, 60) * DAY;
    for (let s = 0; s < sessionCount; s++) {
      sessions.push({ time: at + int(9, 21) * 3_600_000, turns: [], events: [] });
      at += int(5, 16) * DAY;
    }
    // Events per speaker: a few groups told twice or three times (the multi-hop questions), the rest once.
    const events = [];
    for (const person of people) {
      const templates = EVENTS.map((e, i) => ({ e, i })).sort(() => random() - 0.5);
      const told = templates.slice(0, int(8, 11));
      for (const { e, i } of told) {
        const values = { P: person };
        for (const [slot, options] of Object.entries(e.slots)) values[slot] = pick(options);
        events.push({
          id: eventId++,
          person,
          template: e,
          templateIndex: i,
          values,
          session: int(0, sessionCount - 1),
        });
      }
    }
    for (const event of events) sessions[event.session].events.push(event);
    // Turns: an opener, each event told (with the other's echo, sometimes a feeling later), chatter around.
    const mentions = [];
    sessions.forEach((session, s) => {
      const [a, b] = chance(0.5) ? people : [...people].reverse();
      const turns = session.turns;
      turns.push({ speaker: a, text: pick(CHATTER.slice(0, 2)) }, { speaker: b, text: pick(CHATTER) });
      for (const event of session.events) {
        const other = people.find((p) => p !== event.person);
        turns.push({ speaker: event.person, text: fill(pick(event.template.say), event.values), evidence: event.id });
        turns.push({ speaker: other, text: fill(pick(event.template.echo), event.values) });
        if (event.template.feel && chance(0.7)) {
          const later = Math.min(sessions.length - 1, s + int(0, 3));
          (sessions[later].feelings ??= []).push(event);
        }
        if (chance(0.5)) turns.push({ speaker: pick(people), text: pick(CHATTER) });
      }
      for (const event of session.feelings ?? []) {
        turns.push({ speaker: event.person, text: fill(pick(event.template.feel), event.values), feeling: event.id });
        turns.push({ speaker: people.find((p) => p !== event.person), text: pick(CHATTER.slice(10)) });
      }
      // Earlier events come up again in passing: their words, and a little of their answer.
      for (const old of events.filter((e) => e.session < s)) {
        if (!chance(0.04)) continue;
        const value = Object.values(old.values).find((v) => v !== old.person);
        turns.push({ speaker: old.person, text: `Quick update on ${value}: all good, nothing new really.` });
        mentions.push({ event: old.id, session: s, turn: turns.length - 1 });
      }
      while (turns.length < int(14, 24))
        turns.splice(int(2, turns.length), 0, { speaker: pick(people), text: pick(CHATTER) });
    });
    chats.push({ index: c, people, sessions, events, mentions });
  }
  return { chats, questions: planQuestions(chats, random) };
}

function planQuestions(chats, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const questions = [];
  for (const chat of chats) {
    const related = (id) => chat.mentions.filter((m) => m.event === id).map((m) => [m.session, m.turn]);
    for (const event of chat.events) {
      const t = event.template;
      const roll = random();
      if (roll < 0.4)
        questions.push({
          cls: 'single-hop',
          text: fill(pick(t.ask), event.values),
          evidence: [event.id],
          related: related(event.id),
        });
      else if (roll < 0.7)
        questions.push({ cls: 'temporal', text: fill(pick(t.when), event.values), evidence: [event.id], related: [] });
      else if (t.feelAsk && chat.sessions.some((s) => (s.feelings ?? []).includes(event)))
        questions.push({
          cls: 'open-ended',
          text: fill(pick(t.feelAsk), event.values),
          evidence: [],
          feeling: event.id,
          related: [],
        });
    }
    for (const person of chat.people) {
      const byGroup = new Map();
      for (const e of chat.events)
        if (e.person === person) byGroup.set(e.template.group, [...(byGroup.get(e.template.group) ?? []), e]);
      for (const [group, list] of byGroup) {
        if (list.length < 2 || new Set(list.map((e) => e.session)).size < 2) continue;
        questions.push({
          cls: 'multi-hop',
          text: fill(pick(GROUP_QUESTIONS[group]), { P: person }),
          evidence: list.map((e) => e.id),
          related: [],
        });
      }
    }
  }
  return questions;
}

/**
 * Writes a planned set of chats as notes of `granularity` (`turn` or `session`) under `root` (global
 * notes, `memory/reference/`), and returns the graded queries: evidence turns (or their sessions) grade
 * 3, a later mention of the event grade 1.
 */
export function writeConversations(root, plan, granularity) {
  const writer = new NoteWriter(root);
  const keyOfTurn = new Map();
  const keyOfEvent = new Map();
  const keyOfFeeling = new Map();
  for (const chat of plan.chats) {
    const id = `chat-${pad(chat.index + 1)}`;
    chat.sessions.forEach((session, s) => {
      const sessionKey = `memory/reference/${id}-session-${pad(s + 1)}.md`;
      const lines = session.turns.map((t) => `**${t.speaker}:** ${t.text}`);
      session.turns.forEach((turn, t) => {
        const key = granularity === 'turn' ? `memory/reference/${id}-s${pad(s + 1)}-t${pad(t + 1)}.md` : sessionKey;
        if (granularity === 'turn')
          writer.note({ key, body: `${turn.speaker}: ${turn.text}`, timeMs: session.time + t * 60_000, tags: [id] });
        keyOfTurn.set(`${chat.index}:${s}:${t}`, key);
        if (turn.evidence !== undefined) keyOfEvent.set(turn.evidence, key);
        if (turn.feeling !== undefined) keyOfFeeling.set(turn.feeling, key);
      });
      if (granularity === 'session')
        writer.note({
          key: sessionKey,
          body: `# ${chat.people.join(' and ')}, session ${s + 1} (${spoken(session.time)})\n\n${lines.join('\n')}`,
          timeMs: session.time,
          tags: [id],
        });
    });
  }
  const queries = [];
  plan.questions.forEach((q, i) => {
    const chat = plan.chats.find((c) => c.events.some((e) => q.evidence.includes(e.id) || e.id === q.feeling));
    const judgments = new Map();
    for (const [s, t] of q.related) judgments.set(keyOfTurn.get(`${chat.index}:${s}:${t}`), 1);
    for (const e of q.evidence) judgments.set(keyOfEvent.get(e), 3);
    if (q.feeling !== undefined) judgments.set(keyOfFeeling.get(q.feeling), 3);
    queries.push({ id: i, cls: q.cls, text: q.text, project: undefined, judgments, forbidden: new Set() });
  });
  return { notes: writer.notes, queries };
}
