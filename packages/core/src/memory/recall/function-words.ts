/**
 * The words of a prompt that say nothing about its topic: English function words (pronouns,
 * determiners and quantifiers, numbers, question words, auxiliaries, prepositions, conjunctions, generic
 * adverbs), the chatter people type to an agent ("thanks", "ok", "sorry", "please") and the verbs
 * every request is made of ("tell", "give", "know", "look"). They still rank (the index's own stop
 * list is smaller, and ranking is not what this decides); only the injection floor leaves them out, so
 * that "how many ounces in a cup?" or "give me three synonyms for X" does not reach a note by "how",
 * "many" or "three", and "thanks, looks good" has no word a note could hold. Kept by category, never by
 * what a benchmark's prompts say; stored as the index's terms (stemmed as the analyzer does).
 */
import { stem } from '../indexing/tokenize.js';

const WORDS = [
  // pronouns
  'i me my mine myself you your yours yourself yourselves we us our ours ourselves he him his himself',
  'she her hers herself it its itself they them their theirs themselves one ones someone somebody',
  'something anyone anybody anything everyone everybody everything nobody nothing none',
  // determiners and quantifiers
  'a an the this that these those some any all each every both either neither no other others another',
  'such many much more most few less least enough own same lot lots',
  // numbers and counts
  'zero two three four five six seven eight nine ten first second third once twice',
  // question words
  'what whatever when whenever where wherever which whichever who whoever whom whose why how whether',
  // auxiliaries and modals, and their contractions as the analyzer splits them (don't → don)
  'am is are was were be been being have has had having do does did doing done can could shall should',
  'will would may might must ought don doesn didn isn aren wasn weren haven hasn hadn couldn shouldn',
  'wouldn ll ve re',
  // prepositions
  'about above across after afterwards against along among around at before behind below beneath beside',
  'besides between beyond by down during except for from in inside into like near of off on onto out',
  'outside over past since through throughout till to toward towards under until up upon via with within',
  'without',
  // conjunctions
  'and but or nor so yet because although though while whereas if unless than then as',
  // generic adverbs
  'again already also always anyway anyhow else even ever here there now just only quite rather really',
  'still too very well soon later often never sometimes maybe perhaps almost',
  // chatter
  'ok okay yes yeah yep yup nope sure thanks thank thx please pls hi hello hey bye goodbye sorry lol haha',
  'oh ah hmm wow cool nice great good fine alright right',
  // the verbs of a request
  'get gets got getting let lets go goes going gone went come comes came take takes took taken give',
  'gives gave given put say says said tell tells told ask asks asked know knows knew think thinks',
  'thought see sees saw seen look looks looked want wants wanted need needs try tries tried mean means',
  'meant seem seems keep kept help',
];

/** The function words as the index's terms. */
export const FUNCTION_TERMS: ReadonlySet<string> = new Set(
  WORDS.join(' ')
    .split(' ')
    .map((w) => stem(w)),
);

/** Whether a query term (as the analyzer yields it) is a function word or chatter, not a content word. */
export function isFunctionTerm(term: string): boolean {
  return FUNCTION_TERMS.has(term);
}
