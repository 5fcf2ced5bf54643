import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { firstHeading, planTitle } from '../../src/harness/plan/plan-title.js';

// What every front end calls a plan (its listing, a run's messages): issue 21's "goals as names".
describe("a plan's title", () => {
  it.each([
    ['the frontmatter goal', '---\ngoal: Ship the parser\n---\n# Heading\n- [ ] a\n', 'Ship the parser'],
    ['else the first heading', '# Release 1.2\n\n## Steps\n- [ ] a\n', 'Release 1.2'],
    ['a heading after the frontmatter', '---\nstatus: open\n---\n\n## Build it ##\n- [ ] a\n', 'Build it'],
    ['not a heading inside fenced code', '```sh\n# not a title\n```\n# The title\n', 'The title'],
    ['not a heading inside a tilde fence', '~~~\n# nope\n~~~\n', 'build'],
    ['else the name', '- [ ] a\n- [ ] b\n', 'build'],
    ['a blank goal falls back', '---\ngoal: "  "\n---\n# Heading\n', 'Heading'],
  ])('%s', (_what, text, title) => {
    expect(planTitle(parsePlan(text), 'build')).toBe(title);
  });

  it('a hash without a space is not a heading', () => {
    expect(firstHeading(parsePlan('#hashtag\n'))).toBeUndefined();
  });
});
