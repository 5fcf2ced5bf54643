/**
 * The background of the `field` proxy source: the thousands of notes and log entries around the planted
 * answers, on the same features, tools and chores, so that most notes share words with most questions —
 * bug notes, runbooks, reference facts, decisions, preferences, ideas, overviews, standups, long design
 * records — and every project's harness progress logs (test runs, notes, errors, bookkeeping). Topics a
 * question is about are skipped (FieldVault#free): nothing here answers a question unjudged.
 */
import {
  bindFeature,
  choiceNote,
  choreNote,
  factNote,
  fill,
  fixNote,
  ideaNote,
  meetingNote,
  overviewNote,
  pairs,
  prefNote,
  progressEntry,
  slots,
} from './proxy-field-notes.mjs';
import {
  CHOICES,
  CHORES,
  FACTS,
  FEATURE_CHORES,
  FEATURE_FACTS,
  FEATURES,
  PREFERENCES,
  PROJECTS,
  SYMPTOMS,
} from './proxy-field-words.mjs';
import { capital } from './proxy-text.mjs';

/** How often each kind of note is drawn (out of 100). */
const MIX = [
  ['fix', 36],
  ['fchore', 9],
  ['ffact', 6],
  ['chore', 9],
  ['fact', 7],
  ['choice', 3],
  ['pref', 2],
  ['idea', 8],
  ['overview', 7],
  ['meeting', 9],
  ['design', 4],
];

/** Writes about `count` background notes and the progress logs (about one entry per 12 notes). */
export function plantBackground(v, count) {
  const c = v.c;
  const bag = MIX.flatMap(([kind, n]) => Array(n).fill(kind));
  let written = 0;
  for (let tries = 0; written < count && tries < count * 20; tries++) {
    const kind = c.pick(bag);
    const project = c.pick(PROJECTS);
    const made = NOTE[kind](v, project);
    if (!made) continue;
    const [where, note, tags] = made;
    if (v.put(where, note, v.time(), { tags })) written++;
  }
  for (let e = 0; e < count / 12; e++) logEntry(v, c.pick(PROJECTS));
}

/** Draws one note of a kind: `[project or undefined, note, tags]`, or undefined when its topic is taken. */
const NOTE = {
  fix(v, project) {
    const c = v.c;
    const feature = c.pick(FEATURES);
    const symptom = c.pick(SYMPTOMS);
    if (!v.free('fix', `${feature.name}|${symptom.key}`, project.name)) return undefined;
    return [project, fixNote(project, feature, symptom, c), c.maybe(0.6) ? ['bug'] : []];
  },
  fchore(v, project) {
    const c = v.c;
    const feature = c.pick(FEATURES);
    const t = bindFeature(c.pick(FEATURE_CHORES), feature, c);
    if (!v.free('chore', t.task, project.name)) return undefined;
    return [project, choreNote(project, t, c, { feature, steps: c.maybe(0.7) ? t.steps : t.newSteps }), ['runbook']];
  },
  ffact(v, project) {
    const c = v.c;
    const feature = c.pick(FEATURES);
    const t = bindFeature(c.pick(FEATURE_FACTS), feature, c);
    if (!v.free('fact', t.thing, project.name)) return undefined;
    return [project, factNote(project, t, c, { feature, value: c.pick(t.values) }), []];
  },
  chore(v, project) {
    const t = v.c.pick(CHORES);
    if (!v.free('chore', t.task, project.name)) return undefined;
    return [project, choreNote(project, t, v.c), ['runbook']];
  },
  fact(v, project) {
    const t = v.c.pick(FACTS);
    if (!v.free('fact', t.thing, project.name)) return undefined;
    return [project, factNote(project, t, v.c), []];
  },
  choice(v, project) {
    const t = v.c.pick(CHOICES);
    const global = v.c.maybe(0.4);
    if (!v.free('choice', t.topic, global ? 'global' : project.name)) return undefined;
    return [global ? undefined : project, choiceNote(t, v.c, v.c.pick(['plain', 'plain', 'switch'])), []];
  },
  pref(v) {
    const t = v.c.pick(PREFERENCES);
    if (!v.free('pref', t.about, 'global')) return undefined;
    return [undefined, prefNote(t, v.c), []];
  },
  idea: (v, project) => [project, ideaNote(project, v.c.pick(FEATURES), v.c), ['idea']],
  overview: (v, project) => [project, overviewNote(project, v.c.pick(FEATURES), v.c), []],
  meeting: (v, project) => [project, meetingNote(project, pairs(v.c, v.c.int(3, 8)), v.c, dayLabel(v)), ['meeting']],
  design: (v, project) => [project, designNote(v, project), ['adr']],
};

const dayLabel = (v) => new Date(v.time()).toISOString().slice(0, 10);

/** A long design record (15–40 lines) that names many features and problems in passing. */
function designNote(v, project) {
  const c = v.c;
  const about = c.pick(FEATURES);
  const s = slots(project, about, c);
  const context = pairs(c, c.int(3, 8)).map(
    ({ feature, symptom }) =>
      `- the ${feature.name} ${symptom.title} ${c.pick(['twice last quarter', 'under load', 'for big tenants', 'after deploys'])}`,
  );
  const options = c.some(CHOICES, c.int(2, 4)).map((ch) => `- ${ch.pick} vs ${ch.old} for ${ch.topic}`);
  const consequences = c
    .some(FEATURES, c.int(3, 8))
    .map(
      (f) =>
        `- ${f.name}: ${c.pick(['no change', 'needs a migration', 'owner to review', 'covered by the new tests', 'moves to the worker'])}`,
    );
  const n = c.int(1, 40);
  return {
    slug: `adr-${String(n).padStart(4, '0')}-${about.name.replace(/ /g, '-')}-${c.pick(['redesign', 'split', 'ownership', 'storage'])}`,
    type: 'reference',
    title: `ADR ${n}: ${capital(about.name)} ${c.pick(['redesign', 'split', 'ownership', 'storage'])}`,
    body: [
      '## Context',
      '',
      fill('The {F} (`{Id}Service`, `{file}`) grew with every feature. Problems we hit:', s),
      ...context,
      '',
      '## Options',
      '',
      ...options,
      '',
      '## Decision',
      '',
      fill(
        c.pick([
          'Keep {F} in the monolith but behind an interface.',
          'Move {F} into its own service with its own `{table}` table.',
        ]),
        s,
      ),
      '',
      '## Consequences',
      '',
      ...consequences,
    ].join('\n'),
  };
}

/** One background entry of a project's progress log: a test run, a note, an error, or bookkeeping. */
function logEntry(v, project) {
  const c = v.c;
  const { feature, symptom } = pairs(c, 1)[0];
  const s = slots(project, feature, c);
  const step = `s${c.int(1, 12)}`;
  const [kind, text] = c.pick([
    ['tool_result', `\`${project.run}\` → ${c.int(40, 900)} passed, ${c.int(1, 4)} failed (${fill('{test}', s)})`],
    ['tool_result', `\`${project.run}\` → all ${c.int(40, 900)} passed`],
    [
      'note',
      `looked at the ${feature.name} ${symptom.kw}: ${c.pick(['could not reproduce', 'needs logs from prod', 'asked Priya', 'parked'])}`,
    ],
    ['note', `read \`${s.file}\` and \`${s.test}\``],
    ['error', `${fill(c.pick(symptom.errors), s)} while running ${step}`],
    ['transition', `${step} ready → running`],
    ['transition', `${step} running → done`],
    ['decision', `split ${step} into two: the ${feature.name} part first`],
  ]);
  const file = c.maybe(0.7) ? 'progress.md' : `progress-${feature.name.replace(/ /g, '-')}.md`;
  v.log(project, v.time(), (ms) => progressEntry(ms, kind, step, text, c), file);
}
