/**
 * A deterministic embedder for the recall-quality bench's hybrid rows. No model can run here, so this
 * stands in for one: a text becomes a hashed bag (256 dimensions, L2-normalized) of its words' concepts
 * — a word of one of the bench's synonym groups (quality-lexicon.mjs: synonyms and abbreviations; the
 * conversation's kinds of events: a puppy and a kitten are pets) counts as its group, as a model that
 * knows English would place them near — plus, at a quarter weight, the words' character trigrams (as
 * fastText's subwords: inflections and shared word parts). It knows what the generators wrote, which a
 * real model only approximates: the hybrid figures show that fusion works and fit its parameter, they
 * do not measure a model.
 */
import { stem } from './quality-stem.mjs';
import { ABBREVIATIONS, ACTIONS, SUBJECTS } from './quality-lexicon.mjs';
import { EVENTS, GROUP_QUESTIONS } from './quality-dialogue-events.mjs';

const DIMENSIONS = 256;

function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Words that carry little meaning (a model weighs them low; here they are left out). */
const FUNCTION_WORDS = new Set(
  'the a an and or of to in on at for with by from is are was were be been has have had does did do what when where which who how why this that these those it its we our you your they their he she his her me my just so very'.split(
    ' ',
  ),
);
const words = (text) => (text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? []).filter((w) => !FUNCTION_WORDS.has(w));

/** Word (stemmed) → concept name, from the generators' own groups. */
const CONCEPTS = new Map();
const group = (name, phrases) => {
  for (const phrase of phrases)
    for (const w of words(phrase)) if (w.length > 2 && !CONCEPTS.has(stem(w))) CONCEPTS.set(stem(w), name);
};
SUBJECTS.forEach((pair, i) => group(`subject-${i}`, pair));
ACTIONS.forEach((list, i) => group(`action-${i}`, list));
ABBREVIATIONS.forEach((pair, i) => group(`abbr-${i}`, pair));
const GENERIC = new Set(
  'what where when which how has have does did been done this year with about from live lately enjoyed gone through changes made shared picked their they things free time'.split(
    ' ',
  ),
);
for (const [name, questions] of Object.entries(GROUP_QUESTIONS)) {
  const asked = questions.flatMap((q) => words(q.replace('{P}', ''))).filter((w) => !GENERIC.has(w));
  // What was told of the group's events (breeds, sports, crafts…), but no one's name.
  const told = EVENTS.filter((e) => e.group === name).flatMap((e) =>
    Object.entries(e.slots)
      .filter(([slot]) => slot !== 'pet')
      .flatMap(([, values]) => values),
  );
  group(`life-${name}`, [...asked, ...told]);
}

export function conceptVector(text) {
  const v = new Float32Array(DIMENSIONS);
  for (const word of words(text)) {
    const concept = CONCEPTS.get(stem(word)) ?? stem(word);
    const h = hash(concept);
    v[h % DIMENSIONS] += 1;
    const padded = `<${word}>`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const t = hash(padded.slice(i, i + 3));
      v[t % DIMENSIONS] += 0.25;
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < DIMENSIONS; i++) v[i] /= norm;
  return v;
}

/** The embedder as AgentM's EmbeddingProvider interface takes it. */
export const standInEmbedder = {
  id: 'bench-stand-in-256',
  embed: async (texts) => texts.map(conceptVector),
};
