/**
 * Prompts for the hook-injection figures of the proxy sources: unanswerable ones (what people type to
 * an agent that no memory answers — thanks, commands, general knowledge, and near-misses that share a
 * common word of the vault) and answerable ones (a sample of the source's questions, typed as a prompt).
 * The two splits get disjoint halves of each list.
 */
import { chance } from './proxy-text.mjs';

const FIELD_PROMPTS = [
  'thanks, looks good',
  'run the tests again',
  'ok commit that',
  "what's the time complexity of quicksort?",
  'explain the difference between let and const',
  'write a regex that matches an email address',
  'rename this variable to something clearer',
  'can you make the button a bit bigger',
  'good morning!',
  'lgtm, ship it',
  'what time is it in Tokyo right now?',
  'summarize this file for me',
  'add a docstring to this function',
  'why is the sky blue?',
  'translate this error message into French',
  'undo the last change',
  'nice, that worked',
  'how do I exit vim',
  'what does HTTP 418 mean?',
  'format this JSON please',
  'open a PR with these changes',
  'can you explain recursion like I am five',
  'show me the git log for today',
  'what is a monad?',
  'stop, wait a second',
  'convert this function to use async/await',
  'how many bytes are in a kilobyte?',
  'delete the unused imports',
  "that's wrong, try again",
  'write a limerick about code review',
  'who won the world cup in 2010?',
  'sort this list alphabetically',
  'yes, go ahead',
  'what is the capital of Australia?',
  'generate a UUID for me',
  'can you add a newline at the end of the file',
];

const TALK_PROMPTS = [
  'lol',
  'good night!',
  "what's the weather tomorrow?",
  'recommend me a movie for tonight',
  'how do I boil an egg?',
  'tell me a joke',
  'thanks!',
  'what day is it today?',
  'how tall is the Eiffel Tower?',
  'can you set a timer for ten minutes',
  'haha okay',
  'what rhymes with orange?',
  'play some music',
  "I'm bored",
  'how many ounces in a cup?',
  'what is the speed of light?',
  'write me a birthday message for my boss',
  'who painted the Mona Lisa?',
  'ok',
  'convert 30 celsius to fahrenheit',
  'what should I have for lunch?',
  'how do you say thank you in Japanese?',
  'is it going to rain this weekend?',
  'never mind',
];

const NEAR_MISS = [
  'what does the word "{w}" mean?',
  'write a haiku about {w}',
  'how do you spell {w} in German?',
  'give me three synonyms for {w}',
  'is "{w}" a noun or a verb?',
];

/** The unanswerable prompts of a split (`kind`: `field` or `talk`), near-misses built from `words`. */
export function proxyUnanswerable(kind, split, words, seed) {
  const c = chance(seed + 17);
  const half = split === 'test' ? 1 : 0;
  const base = (kind === 'field' ? FIELD_PROMPTS : TALK_PROMPTS).filter((_, i) => i % 2 === half);
  const near = c.some(words, 8).map((w) => c.pick(NEAR_MISS).replace('{w}', w));
  return [...base, ...near].map((text) => ({ text }));
}

/** `n` of the source's questions typed as prompts, with their judgments. */
export function proxyAnswerable(queries, n, seed) {
  const c = chance(seed + 29);
  const lead = ['', '', 'ok next: ', 'quick one — ', 'before we continue: '];
  return c.some(queries, n).map((q) => ({
    text: `${c.pick(lead)}${q.text}`,
    project: q.project,
    judgments: q.judgments,
    forbidden: q.forbidden,
  }));
}
