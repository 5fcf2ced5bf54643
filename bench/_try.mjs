import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSplit, prepareSplit, scoreAgentm, scoreReferences } from './lib/quality-run.mjs';
const dir = await mkdtemp(join(tmpdir(), 'agentm-try-'));
const sources = await prepareSplit(dir, process.env.SPLIT ?? 'dev');
const refs = await scoreReferences(dir, sources);
const variants = JSON.parse(process.argv[2]);
for (const v of variants) {
  const s = (await scoreAgentm(sources, { extra: { ranking: v } })).summary;
  const below = [];
  for (const src of Object.keys(s))
    if (src !== 'all')
      for (const cls of Object.keys(s[src])) {
        const d = s[src][cls].ndcg - refs.fts5[src][cls].ndcg;
        if (d < 0) below.push(`${src}/${cls} ${d.toFixed(3)}`);
      }
  console.log(
    JSON.stringify(v),
    'all',
    s.all.overall.ndcg.toFixed(4),
    Object.keys(s)
      .filter((k) => k !== 'all')
      .map((k) => `${k} ${s[k].overall.ndcg.toFixed(3)}`)
      .join(' '),
    '| below:',
    below.join(', '),
  );
}
await closeSplit(sources);
await rm(dir, { recursive: true, force: true });
