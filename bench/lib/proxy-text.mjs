/**
 * Small text helpers shared by the proxy sources (proxy-field.mjs, proxy-talk.mjs): seeded picking, and
 * the crude content-word test a generator uses to check what it claims of a question (a paraphrase
 * shares at most one content word with its note; a slug-or-title question's words are not in the body).
 * Written apart from the ranking code on purpose: a stemmer of our own, not the engine's.
 */
import { rng } from './corpus.mjs';

/** A seeded random source with the pickers the generators use. */
export function chance(seed) {
  const random = rng(seed);
  const api = {
    random,
    /** An integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(random() * list.length)],
    /** True with probability p. */
    maybe: (p) => random() < p,
    shuffle: (list) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    /** `n` distinct items of `list` (all of it when shorter). */
    some: (list, n) => api.shuffle(list).slice(0, n),
  };
  return api;
}

/** English function words and the filler of questions: never a content word. */
export const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing done down during each few for from further had has have having he ' +
    'her here hers herself him himself his how i if in into is it its itself just let me more most my myself no ' +
    'nor not now of off on once only or other our ours ourselves out over own same she should so some such than ' +
    'that the their theirs them themselves then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'hey hi ok okay please thanks thank again remind tell know think anything something thing things get got ' +
    'also still ever really actually maybe again use used using we did whats what’s did one ones ' +
    'us last time again back earlier recall remember anyone somebody someone way right oh like well yeah'
  ).split(' '),
);

/** A crude English stem: enough to tell whether two wordings share a word (fails, failing, failed → fail). */
export function stem(word) {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.length > suffix.length + 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.length > 4 && /([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** The stems of a text's content words (identifiers split at case changes, `_`, `-`, `.` and `/`). */
export function contentStems(text) {
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w));
  return new Set(words.map(stem));
}

/** The content stems that `question` shares with `text`. */
export function sharedStems(question, text) {
  const of = contentStems(text);
  return [...contentStems(question)].filter((s) => of.has(s));
}

/** The text with its first letter upper-cased. */
export const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** A slug from words: lower-case ASCII, runs of anything else one hyphen. */
export const slugify = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
