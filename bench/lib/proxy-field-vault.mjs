/**
 * The vault the `field` proxy source writes into: notes in agentm's layout (`desk/projects/<p>/<type>/`
 * and `memory/<type>/`, archives in `memory/_archive/`), harness progress logs, the questions asked of
 * it, and which topics are taken — a planted answer's topic is reserved, so no background note answers
 * a question unjudged. Also the topics themselves: what a fix, a chore or a fact note is asked as.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NoteWriter } from './quality-notes.mjs';
import { bindFeature, choiceNote, choreNote, factNote, fixNote, prefNote } from './proxy-field-notes.mjs';
import {
  CHOICES,
  FEATURE_CHORES,
  FEATURE_FACTS,
  FEATURES,
  PREFERENCES,
  PROJECTS,
  SYMPTOMS,
} from './proxy-field-words.mjs';
import { chance } from './proxy-text.mjs';

const HOUR = 3_600_000;

export class FieldVault {
  queries = [];
  #keys = new Set();
  #reserved = new Map();
  #logs = new Map();

  constructor(root, seed, now) {
    this.root = root;
    this.c = chance(seed);
    this.w = new NoteWriter(root);
    this.now = now;
    this.nextId = 1 + (seed % 997) * 10_000;
  }

  /** A time `lo`..`hi` days before now, to the millisecond. */
  time(lo = 3, hi = 400) {
    return this.now - this.c.int(lo * 24, hi * 24) * HOUR - this.c.int(0, HOUR - 1);
  }

  has(key) {
    return this.#keys.has(key);
  }

  /** Where a note goes: its project's folder, or the global `memory/` (`archive`: `memory/_archive/`). */
  keyFor(project, note, archive = false) {
    if (archive) return `memory/_archive/${note.slug}.md`;
    return project
      ? `desk/projects/${project.name}/${note.type}/${note.slug}.md`
      : `memory/${note.type}/${note.slug}.md`;
  }

  /** Writes a note; its key, or undefined when that file exists (a vault never overwrites). */
  put(project, note, timeMs, { status, extra, archive = false, tags } = {}) {
    const key = this.keyFor(project, note, archive);
    if (this.#keys.has(key)) return undefined;
    this.#keys.add(key);
    const body = note.title ? `# ${note.title}\n\n${note.body}` : note.body;
    const group = project ? `desk/projects/${project.name}` : 'memory';
    this.w.note({ key, type: note.type, body, timeMs, tags: tags ?? note.tags ?? [], group, status, extra });
    return key;
  }

  /** Whether a topic may get a note in `scope` (a project's name, `global`, or `*` for "anywhere"). */
  free(kind, topic, scope) {
    const taken = this.#reserved.get(`${kind}|${topic}`);
    if (!taken) return true;
    if (scope === '*' || scope === 'global') return false;
    return !taken.has('*') && !taken.has(scope);
  }

  reserve(kind, topic, scope) {
    const k = `${kind}|${topic}`;
    if (!this.#reserved.has(k)) this.#reserved.set(k, new Set());
    this.#reserved.get(k).add(scope);
  }

  /** Appends an entry to a project's progress log; returns its key (`<file>@<epoch ms>`). */
  log(project, timeMs, line, file = 'progress.md') {
    const path = `desk/projects/${project.name}/_harness/${file}`;
    if (!this.#logs.has(path)) this.#logs.set(path, new Map());
    const entries = this.#logs.get(path);
    let t = timeMs;
    while (entries.has(t)) t += 1;
    entries.set(t, line(t));
    return `${path}@${t}`;
  }

  /** Writes every progress log, entries in time order. */
  flushLogs() {
    for (const [path, entries] of this.#logs) {
      const lines = [...entries].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
      const file = join(this.root, path);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `# Progress\n\n${lines.join('\n')}\n`);
      const last = Math.max(...entries.keys()) / 1000;
      utimesSync(file, last, last);
    }
  }

  /** Records a graded question (`judged`: `[key, grade]` pairs; `forbidden`: keys). */
  ask(cls, text, project, judged, forbidden = []) {
    const judgments = new Map(judged.filter(([k]) => k !== undefined));
    this.queries.push({
      id: this.nextId++,
      cls,
      text,
      project: project?.name,
      judgments,
      forbidden: new Set(forbidden),
    });
  }

  /** A fix topic (feature × symptom) nobody has planted, reserved everywhere. */
  fixTopic(project = this.c.pick(PROJECTS)) {
    const c = this.c;
    for (;;) {
      const feature = c.pick(FEATURES);
      const symptom = c.pick(SYMPTOMS);
      const topic = `${feature.name}|${symptom.key}`;
      if (!this.free('fix', topic, '*')) continue;
      this.reserve('fix', topic, '*');
      const F = feature.name;
      return {
        kind: 'fix',
        project,
        feature,
        symptom,
        render: (opts) => fixNote(project, feature, symptom, c, opts),
        keyword: () => c.pick([`${F} ${symptom.kw}`, `${symptom.kw} ${F}`, `${F} ${symptom.kw} fix`]),
        paraphrases: () =>
          c.shuffle(
            feature.para.flatMap((fp) =>
              symptom.para.flatMap((sp) => [
                `why does the ${fp} ${sp}?`,
                `the ${fp} would ${sp}, what was behind that?`,
                `what did we do when the ${fp} would ${sp}?`,
              ]),
            ),
          ),
        core: () =>
          c.pick([
            `what we did about the ${F} ${symptom.kw}`,
            `what was behind the ${F} ${symptom.kw}`,
            `how we fixed the ${F} ${symptom.kw}`,
          ]),
      };
    }
  }

  /** A chore or fact about one feature, reserved everywhere. */
  featureTopic(kind, project = this.c.pick(PROJECTS)) {
    const c = this.c;
    for (;;) {
      const feature = c.pick(FEATURES);
      const t = bindFeature(c.pick(kind === 'chore' ? FEATURE_CHORES : FEATURE_FACTS), feature, c);
      const topic = kind === 'chore' ? t.task : t.thing;
      if (!this.free(kind, topic, '*')) continue;
      this.reserve(kind, topic, '*');
      const chore = kind === 'chore';
      return {
        kind,
        project,
        feature,
        topic: t,
        render: (opts = {}) =>
          chore
            ? choreNote(project, t, c, { feature, ...opts })
            : factNote(project, t, c, { feature, value: opts.value ?? t.values[0] }),
        keyword: () => topic,
        paraphrases: () =>
          c.shuffle(
            chore
              ? t.para.flatMap((p) => [`how do I ${p}?`, `what's the procedure to ${p}?`])
              : t.para.map((p) => `${p}?`),
          ),
        core: () => (chore ? `how to ${topic}` : c.pick([`what the ${topic} is`, `where we noted the ${topic}`])),
      };
    }
  }

  /** A tool choice or a preference, reserved everywhere; undefined when all are taken. */
  globalTopic(kind, project = this.c.pick(PROJECTS)) {
    const c = this.c;
    const list = kind === 'choice' ? CHOICES : PREFERENCES;
    const options = list.filter((t) => this.free(kind, t.topic ?? t.about, '*'));
    if (options.length === 0) return undefined;
    const t = c.pick(options);
    const topic = t.topic ?? t.about;
    this.reserve(kind, topic, '*');
    const home = kind === 'pref' || c.maybe(0.4) ? undefined : project;
    return {
      kind,
      project: home,
      asker: project,
      topic: t,
      render: (as) => (kind === 'choice' ? choiceNote(t, c, as) : prefNote(t, c)),
      keyword: () => topic,
      paraphrases: () =>
        c.shuffle(
          kind === 'choice'
            ? t.para.flatMap((p) => [`what do we use for ${p}?`, `which library for ${p}?`])
            : t.para.flatMap((p) => [`how should I handle ${p}?`, `any rule about ${p}?`]),
        ),
      core: () => (kind === 'choice' ? `which ${topic} we settled on` : `what the user wants about ${topic}`),
    };
  }
}
