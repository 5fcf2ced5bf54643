/** Seeded synthetic memory vaults for the recall benchmark: Zipf vocabulary, log-normal note lengths. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noteFingerprint as textFingerprint } from '@agentm/core/memory';

/** mulberry32: small, fast, seeded. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` distinct pronounceable words (no English stop words among them). */
export function vocabulary(n, random) {
  const syllables = [
    'ka',
    'to',
    'ri',
    'mo',
    'lan',
    'ver',
    'sto',
    'pex',
    'qui',
    'zor',
    'bal',
    'tin',
    'dru',
    'fen',
    'gor',
    'hul',
    'jax',
    'mel',
    'nor',
    'pil',
    'sev',
    'tur',
    'wix',
    'yal',
    'cro',
    'dap',
  ];
  const words = new Set();
  while (words.size < n) {
    let w = '';
    const k = 2 + Math.floor(random() * 3);
    for (let i = 0; i < k; i++) w += syllables[Math.floor(random() * syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** Draws ranks 0..n-1 with P(rank r) ∝ 1/(r+1)^s. */
export function zipf(n, random, s = 1.07) {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) cdf[i] = acc += 1 / Math.pow(i + 1, s);
  for (let i = 0; i < n; i++) cdf[i] /= acc;
  return () => {
    const u = random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const TYPES = ['convention', 'fix', 'reference', 'workflow', 'preference', 'idea'];

/**
 * Writes a vault of `notes` notes under `root`: 1 in 4 global (memory/<type>/), the rest in 40
 * projects; note bodies of log-normal length (median ≈ 150 words, 5 %–95 % ≈ 55–410); plus one
 * progress file of 40 timestamped entries per 200 notes. Returns the note keys and a word sampler.
 */
export function writeVault(root, notes, seed = 1) {
  const random = rng(seed);
  const words = vocabulary(20_000, random);
  const rank = zipf(words.length, random);
  const sentence = (n) => Array.from({ length: n }, () => words[rank()]).join(' ');
  const keys = [];
  const madeDirs = new Set();
  const write = (key, text) => {
    const dir = join(root, key, '..');
    if (!madeDirs.has(dir)) (mkdirSync(dir, { recursive: true }), madeDirs.add(dir));
    writeFileSync(join(root, key), text);
  };
  const day = 86_400_000;
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < notes; i++) {
    const type = TYPES[i % TYPES.length];
    const project = i % 4 === 0 ? undefined : `project-${i % 40}`;
    const key = project ? `desk/projects/${project}/${type}/note-${i}.md` : `memory/${type}/note-${i}.md`;
    const length = Math.max(12, Math.round(Math.exp(Math.log(150) + 0.6 * gaussian(random))));
    const date = new Date(t0 + Math.floor(random() * 300) * day).toISOString().slice(0, 10);
    const body = `# ${sentence(5)}\n\n${sentence(length)}\n`;
    // Like agentm's save: the fingerprint of the body is recorded in the frontmatter.
    const fingerprint = textFingerprint(body);
    write(
      key,
      `---\ntype: ${type}\nstatus: active\ncreated: ${date}\nupdated: ${date}\ntags: [${words[rank()]}]\nfingerprint: ${fingerprint}\nalways_load: false\n---\n\n${body}`,
    );
    keys.push(key);
  }
  for (let p = 0; p < Math.ceil(notes / 200); p++) {
    const entries = Array.from(
      { length: 40 },
      (_, e) => `- ${new Date(t0 + (p * 40 + e) * 3_600_000).toISOString()} [note] ${sentence(25)}`,
    );
    write(`desk/projects/project-${p % 40}/_harness/progress-${p}.md`, `# Progress\n\n${entries.join('\n')}\n`);
  }
  return { keys, sentence, random, words, rank };
}

function gaussian(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
