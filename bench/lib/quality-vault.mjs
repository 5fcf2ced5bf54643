/**
 * The writer of the recall-quality vault (bench/recall-quality.mjs): seeded word pools, agentm-format
 * notes (frontmatter in agentm's key order, the file's mtime at the note's `updated` time, as a real
 * save leaves it), progress files of harness observations, and the graded queries the planted classes
 * (quality-classes.mjs) register. Knows nothing about how any engine ranks.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noteFingerprint as textFingerprint } from '@agentm/core/memory';
import { rng, vocabulary, zipf } from './corpus.mjs';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
const TYPES = ['convention', 'fix', 'reference', 'workflow', 'preference', 'idea'];

const pad = (n, w = 2) => String(n).padStart(w, '0');
/** Local `YYYY-MM-DD`, as agentm writes dates. */
export const localDate = (ms) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
export const compactDate = (ms) => localDate(ms).replaceAll('-', '');

/**
 * Word pools: a Zipf-distributed common vocabulary for prose, a uniform middle one, and rare words
 * handed out once each (the planted facts' key terms). No word is a prefix of another (Basic Memory
 * queries by prefix, and a syllable generator makes far more prefix pairs than English) and none ends
 * in `s` (AgentM strips plurals, FTS5 does not): the generator favours neither engine.
 */
function wordPools(random) {
  const words = vocabulary(60_000, random)
    .filter((w) => !w.endsWith('s'))
    .sort();
  const kept = words.filter((w, i) => !(words[i + 1] ?? '').startsWith(w));
  for (let i = kept.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kept[i], kept[j]] = [kept[j], kept[i]];
  }
  return { common: kept.slice(0, 2500), mid: kept.slice(2500, 8500), rare: kept.slice(8500) };
}

export class QualityVault {
  /** Graded queries: `{ id, cls, text, project, judgments: Map<key, grade>, forbidden: Set<key> }`. */
  queries = [];
  notes = 0;
  #episodes = new Map();
  #keys = new Set();
  #rareAt = 0;

  constructor(root, { seed, now, projects }) {
    this.root = root;
    this.now = now;
    this.random = rng(seed);
    const pools = wordPools(this.random);
    this.pools = pools;
    const rank = zipf(pools.common.length, this.random);
    this.commonWord = () => pools.common[rank()];
    this.projects = Array.from({ length: projects }, (_, i) => `proj-${pad(i + 1)}`);
  }

  int(lo, hi) {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }
  chance(p) {
    return this.random() < p;
  }
  project() {
    return this.pick(this.projects);
  }
  otherProject(p) {
    for (;;) {
      const q = this.project();
      if (q !== p) return q;
    }
  }
  /** `n` rare words never handed out before. */
  rare(n) {
    if (this.#rareAt + n > this.pools.rare.length) throw new Error('the rare word pool is exhausted');
    return this.pools.rare.slice(this.#rareAt, (this.#rareAt += n));
  }
  /** Prose of `n` words: mostly common words, some of the middle pool. */
  filler(n) {
    return Array.from({ length: n }, () => (this.chance(0.85) ? this.commonWord() : this.pick(this.pools.mid)));
  }
  /** Prose of about `n` words with each of `keys` at a random place. */
  prose(keys, n) {
    const words = this.filler(Math.max(n, keys.length));
    for (const key of keys) words.splice(this.int(0, words.length), 0, key);
    return sentences(words);
  }
  /** A time `days` (fractional) before now, at a random time of day that is not in the future. */
  ago(days) {
    return Math.min(this.now - 60_000, this.now - days * DAY - this.int(0, 10) * HOUR);
  }
  randomAge() {
    return this.ago(this.random() * 365);
  }
  /** A free note key for this owner, type and slug (a numeric suffix when taken). */
  noteKey(owner, type, slug) {
    const dir = owner ? `desk/projects/${owner}/${type}` : `memory/${type}`;
    for (let n = 1; ; n++) {
      const key = `${dir}/${slug}${n === 1 ? '' : `-${n}`}.md`;
      if (!this.#keys.has(key)) return key;
    }
  }

  /**
   * Writes an agentm note and returns its key. `spec`: owner ('' = global), type, title (its heading),
   * body, slug (default: the title's words), updatedMs, createdMs, status, extra frontmatter lines, an
   * explicit key (archives, inbox), and `text` to write verbatim instead (conflict copies).
   */
  note(spec) {
    const type = spec.type ?? this.pick(TYPES);
    const slug = spec.slug ?? slugOf(spec.title);
    const key = spec.key ?? this.noteKey(spec.owner, type, slug);
    const updated = spec.updatedMs ?? this.randomAge();
    const created = Math.min(spec.createdMs ?? updated, updated);
    const body = `# ${spec.title}\n\n${spec.body}\n`;
    const fields = [
      `type: ${type}`,
      `status: ${spec.status ?? 'active'}`,
      'altitude: artifact',
      `created: ${localDate(created)}`,
      `updated: ${localDate(updated)}`,
      `tags: [${(spec.tags ?? [this.commonWord()]).join(', ')}]`,
      `group: ${spec.owner ? `desk/projects/${spec.owner}` : 'memory'}`,
      `slug: ${slug}`,
      `fingerprint: ${textFingerprint(body)}`,
      'always_load: false',
      ...(spec.extra ?? []),
    ];
    this.write(key, spec.text ?? `---\n${fields.join('\n')}\n---\n\n${body}`, updated);
    this.notes++;
    return key;
  }

  /**
   * Records an entry of a project's progress file (`progress.md`, or `progress-<plan>.md` of a named
   * plan) in the harness's observation format; returns its judgment key (`<progress file>@<epoch ms>`).
   */
  episode(project, timeMs, kind, text, plan = undefined, fields = '') {
    const key = `desk/projects/${project}/_harness/progress${plan ? `-${plan}` : ''}.md`;
    let list = this.#episodes.get(key);
    if (!list) this.#episodes.set(key, (list = []));
    // Whole seconds, unique within the file: the judgment key must name exactly one entry.
    let t = Math.floor(timeMs / 1000) * 1000;
    while (list.some((e) => e.t === t)) t -= 1000;
    const step = `s${(list.length % 9) + 1}`;
    const head = `- ${new Date(t).toISOString()} [kind:: ${kind}] [step:: ${fields.step ?? step}] [attempt:: 0] [actor:: 4242@box]`;
    list.push({ t, line: `${head}${fields.rest ?? ''}${text === '' ? '' : ` — ${text}`}` });
    return `${key}@${t}`;
  }

  /**
   * Records bookkeeping of a step in a progress file, as written by `format`: `observation` (today's
   * harness: a transition, a bare result), `legacy` (an older AgentM: `[transition] s: a → b`),
   * `agentm` (date-headed free-form sections, as agentm's logs are) or `hand` (a person's own log).
   * Returns the planted texts (the bench looks for them in what each engine returns).
   */
  bookkeeping(project, plan, step, timeMs, format) {
    const key = `desk/projects/${project}/_harness/progress${plan ? `-${plan}` : ''}.md`;
    let list = this.#episodes.get(key);
    if (!list) this.#episodes.set(key, (list = []));
    const t = Math.floor(timeMs / 1000) * 1000;
    const iso = new Date(t).toISOString();
    const clock = `${pad(new Date(t).getHours())}:${pad(new Date(t).getMinutes())}`;
    const lines = {
      observation: [
        `- ${iso} [kind:: transition] [step:: ${step}] [attempt:: 0] [actor:: 4242@box] [from:: ready] [to:: running] — ready → running`,
        `- ${iso} [kind:: tool_result] [step:: ${step}] [attempt:: 0] [actor:: 4242@box] — step "${step}" completed (2 tool call(s))`,
        `- ${iso} [kind:: transition] [step:: ${step}] [attempt:: 0] [actor:: 4242@box] [from:: running] [to:: done] — running → done`,
      ],
      legacy: [
        `- ${iso} [transition] ${step}: ready → running`,
        `- ${iso} [claim] ${step} claimed by 4242@box`,
        `- ${iso} [transition] ${step}: running → done`,
      ],
      agentm: [
        `## ${localDate(t)} ${clock}

Claimed step \`${step}\`.`,
        `## ${localDate(t)} ${clock}

Step \`${step}\`: done.`,
      ],
      hand: [`- ${clock} started ${step}`, `- ${step} → done ✅`, `- Status: ${step} blocked`, `- released ${step}`],
    }[format];
    lines.forEach((line, i) => list.push({ t: t + i * 1000, line }));
    return lines.map((line) => line.replace(/^(- |## )/, ''));
  }

  /** Writes a named plan's PLAN file (harness state: a goal and its checked steps). */
  plan(project, name, goal, steps, mtimeMs) {
    const lines = steps.map((step, i) => `- [x] ${step} [id:: s${i + 1}]`);
    this.write(
      `desk/projects/${project}/_harness/PLAN-${name}.md`,
      `---\ngoal: ${goal}\nstatus: done\n---\n\n${lines.join('\n')}\n`,
      mtimeMs,
    );
  }

  /** Registers a graded query. `judgments`: `[key, grade]` pairs (grade 3 the answer, 1 related). */
  query(cls, project, words, judgments, forbidden = [], bookkeeping = []) {
    this.queries.push({
      bookkeeping,
      id: this.queries.length,
      cls,
      project,
      text: words.join(' '),
      judgments: new Map(judgments.filter(([key]) => key !== undefined)),
      forbidden: new Set(forbidden),
    });
  }

  write(key, text, mtimeMs) {
    const path = join(this.root, key);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    this.#keys.add(key);
    utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
  }

  /** Writes the progress files (entries in time order, as the harness appends them). */
  flushEpisodes() {
    for (const [key, list] of this.#episodes) {
      list.sort((a, b) => a.t - b.t);
      this.write(key, `# Progress\n\n${list.map((e) => e.line).join('\n\n')}\n`, list[list.length - 1].t);
    }
  }
}

export function slugOf(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function sentences(words) {
  const out = [];
  for (let i = 0; i < words.length;) {
    const n = Math.min(words.length - i, 6 + ((i * 7) % 9));
    const s = words.slice(i, i + n).join(' ');
    out.push(`${s[0].toUpperCase()}${s.slice(1)}.`);
    i += n;
  }
  return out.join(' ');
}
