/**
 * The `field` proxy source: an agent's memory across twelve projects, as a developer's vault holds it,
 * and questions as a developer asks them, in seven classes (written independently of the ranking and of
 * the other generators, to estimate held-out quality honestly):
 *   keyword      a few words of the note ("csv export timeout")
 *   paraphrase   worded unlike the note: at most one content word in common (checked)
 *   distractor   a dozen notes share most of the question's words; one answers it
 *   slug-title   the question's words are only in the file name or the title (checked)
 *   scoped       two projects hold a similar note; the question is asked in one of them
 *   revised      a decision changed; the current note should come first (superseded ones forbidden when
 *                agentm's layout says they are not memories: `status: superseded`, `memory/_archive/`)
 *   long         10–20 words with filler, as typed to an agent
 * Grades: 3 the answer; 2 a log entry that has half of it; 1 the feature's overview note.
 */
import { FieldVault } from './proxy-field-vault.mjs';
import { plantBackground } from './proxy-field-background.mjs';
import { choreNote, factNote, fixNote, meetingNote, overviewNote, pairs, progressEntry } from './proxy-field-notes.mjs';
import { CHORES, FACTS, FEATURES, LONG_WRAPPERS, PROJECTS, SYMPTOMS } from './proxy-field-words.mjs';
import { capital, sharedStems } from './proxy-text.mjs';

export const FIELD_CLASSES = ['keyword', 'paraphrase', 'distractor', 'slug-title', 'scoped', 'revised', 'long'];

/** Writes the vault under `root`; returns `{ queries, notes }`. */
export function writeFieldVault(root, { seed, perClass = 30, background = 3000, now }) {
  const v = new FieldVault(root, seed, now);
  for (let i = 0; i < perClass; i++) for (const cls of FIELD_CLASSES) PLANT[cls](v, i);
  plantBackground(v, background);
  v.flushLogs();
  return { queries: v.queries, notes: v.w.notes };
}

const noteText = (key, note) => `${key}\n${note.title ?? ''}\n${note.body}`;

/** A topic of the mix `kinds` (`fix`, `chore`, `fact`, `choice`, `pref`), by the query's index. */
function topicOf(v, kinds, i) {
  const kind = kinds[i % kinds.length];
  if (kind === 'fix') return v.fixTopic();
  if (kind === 'chore' || kind === 'fact') return v.featureTopic(kind);
  return v.globalTopic(kind) ?? v.fixTopic();
}

/** Writes a topic's note at a random time; its key. */
const place = (v, t, note, opts) => v.put(t.project, note, v.time(), { tags: tagsOf(t), ...opts });

function tagsOf(t) {
  if (t.kind === 'fix') return t.symptom.key === '500' ? ['bug'] : ['bug', t.symptom.key];
  return t.kind === 'chore' ? ['runbook'] : [];
}

/** The partial answers of a fix: its feature's overview note (1) and a log entry with the cause (2). */
function partials(v, t) {
  const out = [];
  if (t.kind !== 'fix') return out;
  const c = v.c;
  if (c.maybe(0.5)) {
    const note = overviewNote(t.project, t.feature, c);
    const key = v.keyFor(t.project, note);
    out.push([v.has(key) ? key : v.put(t.project, note, v.time()), 1]);
  }
  if (c.maybe(0.35)) {
    const cause = fixNote(t.project, t.feature, t.symptom, c).body.match(/[Cc]ause\**:? ([^.\n]+)/)?.[1];
    if (cause)
      out.push([
        v.log(t.project, v.time(), (ms) =>
          progressEntry(
            ms,
            'note',
            `s${c.int(1, 9)}`,
            `${capital(t.feature.name)} ${t.symptom.title}: ${cause}. Fix not done yet.`,
            c,
          ),
        ),
        2,
      ]);
  }
  return out;
}

/** The answer of a fix told only in a progress log (an agent fixed it in a run and wrote no note). */
function logAnswer(v, t) {
  const c = v.c;
  const note = fixNote(t.project, t.feature, t.symptom, c, {});
  const flat = note.body.replace(/\n+/g, ' ').replace(/\*\*|```/g, '');
  const text = flat.includes(t.feature.name) ? flat : `${capital(t.feature.name)} ${t.symptom.title}. ${flat}`;
  return v.log(t.project, v.time(), (ms) => progressEntry(ms, 'decision', `s${c.int(1, 9)}`, text, c));
}

function plantPlain(v, cls, i, kinds, text) {
  const t = topicOf(v, kinds, i);
  const c = v.c;
  if (t.kind === 'fix' && c.maybe(0.15)) {
    const key = logAnswer(v, t);
    v.ask(cls, text(t), t.project, [[key, 3], ...partials(v, t)]);
    return;
  }
  const key = place(v, t, t.render());
  v.ask(cls, text(t), t.asker ?? t.project, [[key, 3], ...partials(v, t)]);
}

/** A long question: a wrapper of filler around the topic's core, 10–20 words. */
function longText(v, t) {
  const core = t.core();
  const fits = LONG_WRAPPERS.map((w) => w.replace('{core}', core)).filter((q) => {
    const n = q.split(/\s+/).length;
    return n >= 10 && n <= 20;
  });
  return v.c.pick(fits.length > 0 ? fits : [`hey, can you check our notes and remind me ${core}? thanks`]);
}

const PLANT = {
  keyword: (v, i) =>
    plantPlain(v, 'keyword', i, ['fix', 'fix', 'chore', 'fix', 'fact', 'fix', 'choice', 'fix', 'pref', 'fix'], (t) =>
      t.keyword(),
    ),
  long: (v, i) =>
    plantPlain(v, 'long', i, ['fix', 'chore', 'fix', 'fact', 'fix', 'choice', 'fix'], (t) => longText(v, t)),

  paraphrase(v, i) {
    for (let attempt = 0; attempt < 40; attempt++) {
      const t = topicOf(
        v,
        ['fix', 'fix', 'chore', 'fix', 'fact', 'fix', 'pref', 'fix', 'chore', 'choice'],
        i + attempt,
      );
      const note = t.render();
      const key = v.keyFor(t.project, note);
      const text = t.paraphrases().find((q) => sharedStems(q, noteText(key, note)).length <= 1);
      if (text === undefined || v.has(key)) continue;
      v.ask('paraphrase', text, t.asker ?? t.project, [[place(v, t, note), 3]]);
      return;
    }
    throw new Error('no paraphrase found in 40 topics: the word lists are too narrow');
  },

  distractor(v) {
    const c = v.c;
    const t = v.fixTopic();
    const { feature, symptom } = t;
    const key = place(v, t, t.render());
    const text = c.pick([
      `how did we fix the ${feature.name} ${symptom.kw}`,
      `${feature.name} ${symptom.kw} root cause`,
      `what caused the ${feature.name} ${symptom.kw}?`,
    ]);
    // Standups that name the same bug in passing, the feature's other bugs that mention this one, and
    // the same symptom in other features that mention this feature: none says what fixed it.
    for (let m = 0; m < 4; m++) {
      const items = c.shuffle([{ feature, symptom }, ...pairs(c, c.int(2, 5))]);
      const where = c.pick(PROJECTS);
      v.put(where, meetingNote(where, items, c, new Date(v.time()).toISOString().slice(0, 10)), v.time());
    }
    const others = c.some(
      SYMPTOMS.filter((s) => s !== symptom),
      4,
    );
    for (const s of others) {
      if (!v.free('fix', `${feature.name}|${s.key}`, '*')) continue;
      v.reserve('fix', `${feature.name}|${s.key}`, '*');
      const n = fixNote(t.project, feature, s, c);
      n.body += `\n\n${c.pick([`Not the ${symptom.kw} issue, that one is separate.`, `We first suspected the ${symptom.kw} again.`, `Unrelated to the ${symptom.kw} ticket.`])}`;
      v.put(c.pick(PROJECTS), n, v.time(), { tags: ['bug'] });
    }
    const alike = c.shuffle(FEATURES.filter((f) => f !== feature && v.free('fix', `${f.name}|${symptom.key}`, '*')));
    for (const f of alike.slice(0, 5)) {
      v.reserve('fix', `${f.name}|${symptom.key}`, '*');
      const where = c.pick(PROJECTS);
      const n = fixNote(where, f, symptom, c);
      n.body += `\n\n${c.pick([`Same symptom as the ${feature.name} bug, different cause.`, `Checked the ${feature.name} code path too: not involved.`])}`;
      v.put(where, n, v.time(), { tags: ['bug'] });
    }
    v.ask('distractor', text, t.project, [[key, 3]]);
  },

  'slug-title'(v, i) {
    for (let attempt = 0; attempt < 40; attempt++) {
      const t = topicOf(v, ['fix', 'fix', 'fix', 'fix', 'fix', 'chore'], i + attempt);
      const note = t.render({ blind: true });
      if (v.c.maybe(0.5)) note.title = undefined;
      const text = t.keyword();
      if (sharedStems(text, note.body).length > 0 || v.has(v.keyFor(t.project, note))) continue;
      if (!sharedStems(text, noteText(v.keyFor(t.project, note), note)).length) continue;
      v.ask('slug-title', text, t.project, [[place(v, t, note, { tags: t.kind === 'fix' ? ['bug'] : [] }), 3]]);
      return;
    }
    throw new Error('no slug-or-title question found in 40 topics');
  },

  scoped(v, i) {
    const c = v.c;
    for (;;) {
      const [p, q] = c.some(PROJECTS, 2);
      const kind = ['chore', 'fact', 'chore', 'fact', 'fix'][i % 5];
      if (kind === 'fix') {
        const t = v.fixTopic(p);
        const mine = place(v, t, t.render());
        v.put(q, fixNote(q, t.feature, t.symptom, c), v.time(), { tags: ['bug'] });
        v.ask('scoped', t.keyword(), p, [[mine, 3]]);
        return;
      }
      const item = c.pick(kind === 'chore' ? CHORES : FACTS);
      const topic = item.task ?? item.thing;
      if (!v.free(kind, topic, p.name) || !v.free(kind, topic, q.name)) continue;
      v.reserve(kind, topic, p.name);
      v.reserve(kind, topic, q.name);
      const render = (project) => (kind === 'chore' ? choreNote(project, item, c) : factNote(project, item, c));
      const mine = v.put(p, render(p), v.time());
      const theirs = v.put(q, render(q), v.time());
      if (!mine || !theirs) continue;
      const text =
        kind === 'chore'
          ? c.pick([`how do we ${topic}?`, topic, `steps to ${topic}`, `${topic} checklist`])
          : c.pick([topic, `what's the ${topic}?`, `where do I find the ${topic}?`]);
      v.ask('scoped', text, p, [[mine, 3]]);
      return;
    }
  },

  revised(v, i) {
    const c = v.c;
    let t = topicOf(v, ['choice', 'chore', 'choice', 'fact'], i);
    if (t.kind === 'fix') t = v.featureTopic('chore'); // every tool choice is taken
    const how = ['supersedes', 'archive', 'v2', 'unstructured'][i % 4];
    const [old, now] = revisions(t, c);
    if (how === 'v2') now.slug = `${old.slug}-v2`;
    else if (how !== 'archive' && now.slug === old.slug)
      now.slug = `${now.slug}-${c.pick(['now', 'current', 'update'])}`;
    const t0 = v.time(120, 400);
    const t1 = t0 + c.int(15, 110) * 86_400_000;
    const superseded = how === 'supersedes' || how === 'archive' ? { status: 'superseded' } : {};
    const oldKey = v.put(t.project, old, t0, { ...superseded, archive: how === 'archive' });
    const extra = how === 'supersedes' ? [`supersedes: ${oldKey}`] : undefined;
    const newKey = v.put(t.project, now, Math.min(t1, v.now - 86_400_000), { extra });
    const topic = t.kind === 'choice' ? t.topic.topic : t.keyword();
    const text =
      t.kind === 'choice'
        ? c.pick([`which ${topic} do we use?`, topic, `what's our ${topic} now?`, `${topic} decision`])
        : t.kind === 'chore'
          ? c.pick([`how do I ${topic}?`, topic])
          : c.pick([topic, `what is the ${topic}?`]);
    v.ask(
      'revised',
      text,
      t.asker ?? t.project,
      [
        [newKey, 3],
        [oldKey, 0],
      ],
      superseded.status ? [oldKey] : [],
    );
  },
};

/** The earlier and the current note of a topic whose answer changed. */
function revisions(t, c) {
  if (t.kind === 'choice') return [t.render('old'), t.render(c.pick(['switch', 'plain']))];
  if (t.kind === 'chore') {
    const now = t.render({ steps: t.topic.newSteps });
    now.body = `${c.pick(['Changed this quarter. ', 'Updated: ', ''])}${now.body}`;
    return [t.render(), now];
  }
  const [a, b] = c.some(t.topic.values, 2);
  return [t.render({ value: a }), t.render({ value: b })];
}
