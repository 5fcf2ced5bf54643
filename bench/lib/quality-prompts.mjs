/**
 * Prompts for the hook-injection figures of the recall-quality bench: what a user types to an agent.
 * Unanswerable ones — no memory of the vault bears on them: chit-chat, commands, questions about an
 * unrelated algorithm, and near-misses that share one frequent word of the vault — and answerable ones:
 * a source's questions as people put them to an agent ("can you remind me …"). The fixed lists are
 * split between dev and test by a seeded shuffle: no prompt is in both.
 */
import { rng } from './corpus.mjs';

const CHITCHAT = [
  'thanks! that looks good to me',
  'great, thank you',
  'perfect, ship it',
  'ok cool',
  'lgtm',
  'nice work!',
  'sounds good',
  'awesome, thanks a lot',
  "that's it for today",
  'hmm interesting',
  'yes please',
  'no, leave it as is',
  'good morning!',
  'you are a star',
  'ok go ahead',
  'alright, makes sense',
  'wow that was fast',
  'cool cool cool',
  'fine by me',
  'thanks, that fixed it',
  'brilliant',
  'ok, next',
  'much better now',
  'yep, exactly what I wanted',
  'sure, why not',
  'haha nice',
  'I am back',
  'let me think about it',
  'never mind',
  'carry on',
];

const COMMANDS = [
  'run the tests one more time',
  'commit this',
  'push the branch',
  'format the files',
  'try again',
  'undo that last change',
  'show me the diff',
  'run the linter',
  'build it again',
  'open a pull request',
  'rerun the failing job',
  'restart the dev server',
  'stage everything and commit with a short message',
  'revert the last commit',
  'clean up the imports',
  'add a comment explaining that function',
  'rename the variable to something clearer',
  'delete the unused file',
  'bump the version number',
  'update the changelog',
  'squash these commits',
  'check the CI status',
  'install the dependencies',
  'print the current directory',
  'list the files here',
  'make the test pass',
  'split this function in two',
  'fix the typo in the readme',
  'run it with verbose output',
  'stop the watcher',
];

const UNRELATED = [
  "how does Dijkstra's shortest path algorithm work?",
  "explain quicksort's worst case",
  'what is the time complexity of inserting into a binary heap?',
  'how do bloom filters avoid false negatives?',
  "what's the difference between TCP and UDP?",
  'explain the CAP theorem',
  'how does a red-black tree stay balanced?',
  'what is memoization in dynamic programming?',
  'write a regex that matches an email address',
  'how do I reverse a linked list in place?',
  'what is a monad?',
  'what is the big O of merge sort?',
  'how does the Raft consensus algorithm elect a leader?',
  'explain how public key cryptography works',
  'what is tail call optimization?',
  'how does garbage collection work in the JVM?',
  'what is the difference between a process and a thread?',
  'explain the Fourier transform simply',
  'how do hash tables handle collisions?',
  'what is a B-tree used for?',
  'how does gradient descent find a minimum?',
  'explain the halting problem',
  'what does a topological sort do?',
  'how does HTTPS negotiate a session key?',
  'what is the Levenshtein distance between two strings?',
  'how does a trie store words?',
  'explain eventual consistency with an example',
  'what is the knapsack problem?',
  'how does LRU eviction work?',
  'what is a Merkle tree?',
];

const NEAR_MISS = [
  'what is a good {w} for a birthday present?',
  "can you recommend a {w} for my grandmother's garden?",
  "translate the word '{w}' into French",
  'write a haiku about {w}',
  'what rhymes with {w}?',
  'who invented the {w}?',
  'is {w} a good name for a cat?',
  'how do you pronounce {w}?',
];

const ASKING = [
  '{q}',
  'can you remind me {q}?',
  '{q} — I think we settled this before',
  'before you start: {q}',
  'quick question, {q}',
];

/** Half of `list`, by a seeded shuffle: `dev` and `test` halves never overlap. */
function half(list, split, seed) {
  const random = rng(seed);
  const shuffled = list
    .map((x) => [random(), x])
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);
  const cut = Math.floor(shuffled.length / 2);
  return split === 'dev' ? shuffled.slice(0, cut) : shuffled.slice(cut);
}

/**
 * The unanswerable prompts of a split for one vault: `{ cls, text }`. `frequent` are the vault's most
 * frequent words (a near-miss shares one of them).
 */
export function unanswerablePrompts(split, frequent, seed) {
  const random = rng(seed + 7);
  const nearMiss = Array.from({ length: 16 }, (_, i) =>
    NEAR_MISS[i % NEAR_MISS.length].replace('{w}', frequent[Math.floor(random() * frequent.length)]),
  );
  return [
    ...half(CHITCHAT, split, 11).map((text) => ({ cls: 'chit-chat', text })),
    ...half(COMMANDS, split, 12).map((text) => ({ cls: 'command', text })),
    ...half(UNRELATED, split, 13).map((text) => ({ cls: 'unrelated', text })),
    ...half(nearMiss, split, 14).map((text) => ({ cls: 'near-miss', text })),
  ];
}

/** A source's questions as prompts to an agent (at most `max`, spread over its classes). */
export function answerablePrompts(queries, max, seed) {
  const random = rng(seed + 3);
  const step = Math.max(1, queries.length / max);
  const out = [];
  for (let i = 0; i < queries.length && out.length < max; i += step) {
    const q = queries[Math.floor(i)];
    const text = ASKING[Math.floor(random() * ASKING.length)].replace('{q}', q.text.replace(/\?$/, ''));
    out.push({ ...q, cls: 'answerable', text });
  }
  return out;
}
