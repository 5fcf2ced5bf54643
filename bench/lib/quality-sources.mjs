/**
 * The sources of the recall-quality bench, each written by its own generator into a vault of its own:
 *   agent          agentm notes, named plans and progress logs over 24 projects (quality-classes.mjs)
 *   chat-turn      a long multi-session conversational memory, one note per turn (quality-conversation.mjs)
 *   chat-session   the same conversations, one note per session
 *   vocabulary     engineers' notes asked about in other words (quality-vocabulary.mjs)
 * and the proxy sources, written apart from the ranking and from the generators above to estimate the
 * held-out sets honestly (their own questions, prompts and seeds):
 *   field          agent notes and progress logs over 12 projects, seven question classes (proxy-field.mjs)
 *   talk-turn      LoCoMo-like conversations between pairs of friends, one note per turn (proxy-talk.mjs)
 *   talk-session   the same conversations, one note per session
 * QUALITY_SOURCES (comma-separated names, default all) limits which are written.
 * A split (`dev` or `test`) is a whole set of vaults from its own seed: no note, question or prompt of
 * one is in the other. Everything is fitted on dev (bench/fit-recall.mjs) and reported on test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plantBackground, QUERY_CLASSES } from './quality-classes.mjs';
import { planConversations, writeConversations } from './quality-conversation.mjs';
import { answerablePrompts, unanswerablePrompts } from './quality-prompts.mjs';
import { QualityVault } from './quality-vault.mjs';
import { writeVocabularyVault } from './quality-vocabulary.mjs';
import { writeFieldVault } from './proxy-field.mjs';
import { proxyAnswerable, proxyUnanswerable } from './proxy-prompts.mjs';
import { planTalks, writeTalks } from './proxy-talk.mjs';

/** "Now" for every engine: a fixed local afternoon, so a run does not depend on the clock. */
export const NOW = new Date(2026, 5, 30, 15, 0, 0).getTime();
export const SEEDS = { dev: 20261126, test: 20270311 };
export const SOURCES = ['agent', 'chat-turn', 'chat-session', 'vocabulary', 'field', 'talk-turn', 'talk-session'];

/** The names of the sources a run writes (QUALITY_SOURCES, default all), in SOURCES' order. */
export const enabledSources = () => SOURCES.filter((name) => settings().sources.has(name));

/**
 * Each split asks QUALITY_DEV_SCALE / QUALITY_TEST_SCALE (default 4 both) times 20 questions a class of
 * the agent, conversation and vocabulary sources: at 20 per class a failure that one question in twenty
 * shows (agent/log-answers) can be absent from dev and the fit never sees it, and a class of test
 * (open-ended questions over one note per session: 9 at scale 1) is too small to tell a class below FTS5
 * from noise. The proxy sources keep their size (the field generator did not finish in five minutes at
 * twice its size).
 */
const settings = (split = 'test') => {
  const scale = Number((split === 'dev' ? process.env.QUALITY_DEV_SCALE : process.env.QUALITY_TEST_SCALE) ?? 4);
  return {
    background: Number(process.env.QUALITY_NOTES ?? 3000),
    perClass: Number(process.env.QUALITY_PER_CLASS ?? 20) * scale,
    chats: Number(process.env.QUALITY_CHATS ?? 6) * scale,
    fieldNotes: Number(process.env.QUALITY_FIELD_NOTES ?? 3000),
    fieldPerClass: Number(process.env.QUALITY_FIELD_PER_CLASS ?? 30),
    talks: Number(process.env.QUALITY_TALKS ?? 6),
    sources: new Set((process.env.QUALITY_SOURCES ?? SOURCES.join(',')).split(',').map((s) => s.trim())),
  };
};

/** Writes the vaults of a split under `dir`; returns `[{ name, root, queries, prompts }]`. */
export function writeSources(dir, split) {
  const seed = SEEDS[split];
  const { background, perClass, chats, sources } = settings(split);
  const unknown = [...sources].filter((s) => !SOURCES.includes(s));
  if (unknown.length > 0)
    throw new Error(`QUALITY_SOURCES names ${unknown.join(', ')}: the sources are ${SOURCES.join(', ')}`);
  const out = [];

  if (sources.has('agent')) {
    const agentRoot = join(dir, `${split}-agent`);
    const v = new QualityVault(agentRoot, { seed, now: NOW, projects: 24 });
    plantBackground(v, background);
    for (let i = 0; i < perClass; i++) for (const plant of Object.values(QUERY_CLASSES)) plant(v, i);
    v.flushEpisodes();
    out.push({ name: 'agent', root: agentRoot, queries: v.queries, notes: v.notes });
  }

  const plan = planConversations(seed + 1, chats, NOW - 420 * 86_400_000);
  for (const granularity of ['turn', 'session']) {
    if (!sources.has(`chat-${granularity}`)) continue;
    const root = join(dir, `${split}-chat-${granularity}`);
    const written = writeConversations(root, plan, granularity);
    out.push({ name: `chat-${granularity}`, root, queries: written.queries, notes: written.notes });
  }

  if (sources.has('vocabulary')) {
    const vocabRoot = join(dir, `${split}-vocabulary`);
    const vocab = writeVocabularyVault(vocabRoot, {
      seed: seed + 2,
      perClass: perClass * 2,
      background: Math.round(background / 2),
      now: NOW,
    });
    out.push({ name: 'vocabulary', root: vocabRoot, queries: vocab.queries, notes: vocab.notes });
  }

  for (const source of out) {
    const project = source.queries.find((q) => q.project)?.project;
    source.prompts = [
      ...answerablePrompts(source.queries, 40, seed),
      ...unanswerablePrompts(split, frequentWords(source.root, 40), seed).map((p) => ({
        ...p,
        project,
        judgments: new Map(),
        forbidden: new Set(),
      })),
    ];
  }
  out.push(...writeProxySources(dir, split, seed));
  return out;
}

/** The proxy sources of a split (those QUALITY_SOURCES names), each with prompts of its own making. */
function writeProxySources(dir, split, seed) {
  const { fieldNotes, fieldPerClass, talks, sources } = settings();
  const out = [];
  if (sources.has('field')) {
    const root = join(dir, `${split}-field`);
    const field = writeFieldVault(root, { seed: seed + 3, perClass: fieldPerClass, background: fieldNotes, now: NOW });
    out.push({ name: 'field', root, kind: 'field', queries: field.queries, notes: field.notes });
  }
  const wanted = ['turn', 'session'].filter((g) => sources.has(`talk-${g}`));
  const planned = wanted.length > 0 ? planTalks(seed + 4, talks, NOW - 720 * 86_400_000) : undefined;
  for (const granularity of wanted) {
    const root = join(dir, `${split}-talk-${granularity}`);
    const written = writeTalks(root, planned, granularity, (seed % 997) * 10_000);
    out.push({ name: `talk-${granularity}`, root, kind: 'talk', queries: written.queries, notes: written.notes });
  }
  for (const source of out) {
    const project = source.queries.find((q) => q.project)?.project;
    source.prompts = [
      ...proxyAnswerable(source.queries, 40, seed),
      ...proxyUnanswerable(source.kind, split, frequentWords(source.root, 40), seed).map((p) => ({
        ...p,
        project,
        judgments: new Map(),
        forbidden: new Set(),
      })),
    ];
  }
  return out;
}

const COMMON = new Set(
  'the and for with that this from have has was were are not but you your our they them their what when which will would there here into then than also just about been more some time'.split(
    ' ',
  ),
);

/** The words in most notes of a vault (length ≥ 4, no common English function word): what a near-miss shares. */
export function frequentWords(root, n) {
  const df = new Map();
  const dirs = [''];
  while (dirs.length > 0) {
    const rel = dirs.pop();
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const key = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) dirs.push(key);
      else if (e.name.endsWith('.md')) {
        const text = readFileSync(join(root, key), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
        for (const w of new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []))
          if (!COMMON.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
      }
    }
  }
  return [...df]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([w]) => w);
}
