/**
 * What the notes of the `field` proxy source say: pure functions from a topic (a fix, a choice, a
 * chore, a fact, …) and a project to `{ slug, type, title?, body }`, in the shapes engineers leave in a
 * vault — a structured bug note, two lines of prose, a numbered runbook, a standup list — with file
 * paths, identifiers, commands and error messages. proxy-field.mjs decides where they go and what is
 * asked of them.
 */
import { FEATURES, STATUS_WORDS, SYMPTOMS } from './proxy-field-words.mjs';
import { capital, slugify } from './proxy-text.mjs';

/** The slots a template may use, for a feature in a project. */
export function slots(project, feature, c) {
  const words = feature.name.split(' ');
  const snake = words.join('_');
  return {
    F: feature.name,
    Id: feature.id,
    table: snake.endsWith('s') ? snake : `${snake}s`,
    file: `${project.dir}/${slugify(feature.name)}/${words[words.length - 1]}.${project.ext}`,
    test: `${project.dir}/${slugify(feature.name)}/${words[0]}.test.${project.ext}`,
    ...project,
    n: c.pick([3, 8, 12, 40, 120, 250, 3000, 5173, 8080, 9229]),
  };
}

/** Fills `{slot}` from `values`, leaving unknown slots as written. */
export const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));

/** Slots with nothing of the feature in them: a body that names its subject only in the title. */
const BLIND = { F: 'it', Id: 'Main', table: 'records', file: 'src/main.ts', test: 'test/main.test.ts' };

/** A bug note: a symptom of a feature, its cause and its fix (`blind`: the body never names either). */
export function fixNote(project, feature, symptom, c, { blind = false } = {}) {
  const s = { ...slots(project, feature, c), ...(blind ? BLIND : {}) };
  const which = c.int(0, symptom.causes.length - 1); // causes and fixes are written in pairs
  const cause = fill(symptom.causes[which], s);
  const fix = fill(symptom.fixes[which], s);
  const error = fill(c.pick(symptom.errors), s);
  const title = `${capital(feature.name)} ${symptom.title}`;
  const slug = c.pick([
    `fix-${slugify(feature.name)}-${slugify(symptom.kw)}`,
    `${slugify(feature.name)}-${slugify(symptom.title)}`,
    `${slugify(symptom.kw)}-in-${slugify(feature.name)}`,
  ]);
  const where = c.pick(['in prod', 'on staging', 'for one customer', 'after the last deploy', 'since Tuesday']);
  const shapes = blind
    ? [
        `Cause: ${cause}.\nFix: ${fix}.`,
        `Happened ${where}. Turned out ${cause}.\n\n${capital(fix)}.`,
        `- cause: ${cause}\n- fix: ${fix}\n- verified with \`${project.run}\``,
      ]
    : [
        `**Symptom**: \`${error}\` ${where}.\n**Cause**: ${cause}.\n**Fix**: ${fix}.\n\nCode: \`${s.file}\``,
        `The ${feature.name} ${symptom.title} ${where}. Turned out ${cause}. ${capital(fix)}.`,
        `Seen ${where}:\n\n\`\`\`\n${error}\n\`\`\`\n\nRoot cause: ${cause}.\n\n- ${fix}\n- regression test in \`${s.test}\``,
        `${capital(feature.name)} ${symptom.title}: ${cause}. Fixed: ${fix}.`,
      ];
  // Many fix notes are named after the fix, not the symptom ("batch-upstream-calls"); their text then
  // says what broke.
  if (!blind && c.maybe(0.3)) {
    const named = symptom.named[which];
    return {
      slug: c.pick([named, `${named}-${slugify(feature.name)}`]),
      type: 'fix',
      title: c.maybe(0.5) ? capital(named.replace(/-/g, ' ')) : undefined,
      body: `${title} ${where}.\n\n${c.pick(shapes)}`,
    };
  }
  return { slug, type: 'fix', title, body: c.pick(shapes) };
}

/** A tool decision (`as`: `plain` use X; `old` the earlier decision; `switch` the move from old to new). */
export function choiceNote(choice, c, as = 'plain') {
  const pick = as === 'old' ? choice.old : choice.pick;
  const title = c.pick([
    `Use ${pick.replace(/`/g, '')} for ${choice.topic}`,
    `${capital(choice.topic)}: ${pick.replace(/`/g, '')}`,
  ]);
  const base = slugify(`${choice.topic}`);
  const slug =
    as === 'switch'
      ? c.pick([`${base}-decision`, `switch-to-${slugify(pick)}`])
      : c.pick([`use-${slugify(pick)}`, base]);
  const body =
    as === 'switch'
      ? c.pick([
          `We moved from ${choice.old} to ${choice.pick} for ${choice.topic}: ${choice.why}. New code uses ${choice.pick} only; the old calls are being migrated.`,
          `Decision (${c.pick(['retro', 'arch sync', 'RFC 12'])}): ${choice.pick} replaces ${choice.old}.\n\n- why: ${choice.why}\n- migration: file by file, no big bang`,
        ])
      : as === 'old'
        ? c.pick([
            `Use ${choice.old} for ${choice.topic}. Everyone knows it and it is already in the lockfile.`,
            `${capital(choice.topic)}: ${choice.old}. Do not add alternatives.`,
          ])
        : c.pick([
            `Use ${choice.pick} for ${choice.topic}, not ${choice.old}: ${choice.why}.`,
            `${capital(choice.topic)} → ${choice.pick}.\n\nReason: ${choice.why}.`,
          ]);
  return { slug, type: 'convention', title: as === 'switch' ? undefined : title, body };
}

/** A runbook (`steps` override the chore's, for a revised procedure). */
export function choreNote(project, chore, c, { steps = chore.steps, blind = false, feature = c.pick(FEATURES) } = {}) {
  const s = slots(project, feature, c);
  const numbered = c.maybe(0.5);
  const list = steps.map((step, i) => `${numbered ? `${i + 1}.` : '-'} ${fill(step, s)}`);
  const title = c.pick([`How to ${chore.task}`, capital(chore.task)]);
  const intro = blind
    ? ''
    : c.pick(['', `To ${chore.task} in ${project.name}:\n\n`, `Checklist (${project.name}).\n\n`]);
  return {
    slug: c.pick([slugify(chore.task), `how-to-${slugify(chore.task)}`]),
    type: 'workflow',
    title,
    body: `${intro}${list.join('\n')}`,
  };
}

/** A reference fact of a project (`value` overrides the fact's own, for a revised value). */
export function factNote(project, fact, c, { value = fact.value, feature = c.pick(FEATURES) } = {}) {
  const s = slots(project, feature, c);
  const v = fill(value, s);
  const body = c.pick([
    `${capital(fact.thing)}: ${v}`,
    `${capital(fact.thing)} for ${project.name} is ${v}.`,
    `- ${fact.thing}: ${v}\n- last checked ${c.pick(['in March', 'at the offsite', 'during onboarding'])}`,
  ]);
  return { slug: slugify(fact.thing), type: 'reference', title: c.maybe(0.5) ? capital(fact.thing) : undefined, body };
}

export function prefNote(pref, c) {
  return {
    slug: slugify(pref.about),
    type: 'preference',
    title: c.maybe(0.4) ? capital(pref.about) : undefined,
    body: c.maybe(0.5) ? pref.text : `User preference: ${pref.text}`,
  };
}

const IDEAS = [
  'cache {F} results in redis for 5 minutes',
  'move {F} to a background job on the queue',
  'add an e2e test for {F} before the redesign',
  'split `{Id}Service` into read and write sides',
  'track {F} usage with an analytics event to see if anyone uses it',
  'put {F} behind a feature flag for the beta customers',
];

export function ideaNote(project, feature, c) {
  const text = fill(c.pick(IDEAS), slots(project, feature, c));
  return {
    slug: slugify(`idea-${text.split(' ').slice(0, 5).join(' ')}`),
    type: 'idea',
    title: undefined,
    body: `Idea: ${text}. ${c.pick(['Not urgent.', 'Ask Priya.', 'Maybe next quarter.', ''])}`.trim(),
  };
}

/** What a feature is and where it lives: a note that shares a feature's words with every question about it. */
export function overviewNote(project, feature, c) {
  const s = slots(project, feature, c);
  return {
    slug: slugify(`${feature.name}-overview`),
    type: 'reference',
    title: capital(feature.name),
    body: fill(
      c.pick([
        'The {F} lives in `{file}` (`{Id}Service`). Tests: `{test}`. Table `{table}`.',
        'Owner: {owner}. Entry point `{Id}Controller`; the data is in `{table}`.\n\nKnown issues are tracked under the `{name}` board.',
      ]),
      { ...s, owner: c.pick(['Priya', 'Tomás', 'Wen', 'Aisha', 'Jonas']) },
    ),
  };
}

/** A standup, retro or sprint note mentioning several features and symptoms in passing. */
export function meetingNote(project, items, c, dayLabel) {
  const lines = items.map(({ feature, symptom }) => {
    const s = slots(project, feature, c);
    return `- ${feature.name} ${symptom.kw}: ${fill(c.pick(STATUS_WORDS), s)}`;
  });
  const kind = c.pick(['standup', 'retro', 'sprint-review', 'planning']);
  return {
    slug: `${kind}-${dayLabel}`,
    type: 'reference',
    title: c.maybe(0.6) ? `${capital(kind.replace('-', ' '))} ${dayLabel}` : undefined,
    body: lines.join('\n'),
  };
}

/** Random feature × symptom pairs (for meetings and logs). */
export function pairs(c, n) {
  return Array.from({ length: n }, () => ({ feature: c.pick(FEATURES), symptom: c.pick(SYMPTOMS) }));
}

/** One harness progress entry, as the reconciler writes it (`text` the observation's first line). */
export function progressEntry(timeMs, kind, step, text, c) {
  const head = `- ${new Date(timeMs).toISOString()} [kind:: ${kind}] [step:: ${step}] [attempt:: ${c.int(0, 2)}] [actor:: ${c.pick(['4121@devbox', '977@ci-runner', 'planner', 'claude'])}]`;
  return `${head} — ${text}`;
}

/** A feature's chore or fact as a plain chore or fact (its `{F}` and `{P}` filled). */
export function bindFeature(topic, feature, c) {
  const P = c.pick(feature.para);
  const out = { ...topic, feature, task: topic.task && fill(topic.task, { F: feature.name }) };
  if (topic.thing) out.thing = fill(topic.thing, { F: feature.name });
  out.para = topic.para.map((p) => fill(p, { P }));
  return out;
}
