import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertSlug } from '@agentm/core/memory';
import { selectionBody, suggestSlug } from '../../src/commands/save-draft';

describe('the slug suggested from a selection', () => {
  it.each([
    ['// Debounce the file watcher by 150 ms', 'debounce-the-file-watcher-by-150'],
    ['# Prefer pnpm over npm', 'prefer-pnpm-over-npm'],
    ['\n\n   /* Retry with backoff */\nfunction x() {}', 'retry-with-backoff'],
    ['-- SELECT rows FROM t', 'select-rows-from-t'],
    ['> Quoted: “Café” résumé', 'quoted-cafe-resume'],
    ['- [ ] a task line', 'a-task-line'],
    ['1. First, do this', 'first-do-this'],
    ['<!-- html comment -->', 'html-comment'],
    ['""" Docstring of a module """', 'docstring-of-a-module'],
    ['const fooBar = 1;', 'const-foobar-1'],
    ['{}\n()', ''],
    ['', ''],
  ])('%j → %j', (selection, slug) => {
    expect(suggestSlug(selection)).toBe(slug);
  });

  it('keeps to six words and 60 characters', () => {
    expect(suggestSlug('one two three four five six seven eight')).toBe('one-two-three-four-five-six');
    expect(suggestSlug(`${'a'.repeat(40)} ${'b'.repeat(40)}`)).toBe('a'.repeat(40));
    expect(suggestSlug('x'.repeat(90))).toHaveLength(60);
  });

  it('is always a valid slug or empty, whatever the selection', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const slug = suggestSlug(text);
        if (slug !== '') assertSlug(slug);
      }),
    );
  });
});

describe('the body saved for a selection', () => {
  const source = {
    text: '\nconst x = 1;\nconsole.log(x);\n\n',
    languageId: 'typescript',
    path: 'src/app.ts',
    startLine: 12,
    endLine: 14,
    commit: '0123456789abcdef0123456789abcdef01234567',
  };

  it('gives code a title, fences it with its language and says where it came from: repo path, lines, commit', () => {
    expect(selectionBody(source, 'log-the-value')).toBe(
      '# Log the value\n\n```typescript\nconst x = 1;\nconsole.log(x);\n```\n\nFrom `src/app.ts`, lines 12–14, at commit 0123456789ab.\n',
    );
  });

  it('uses the usual fence name, and a fence longer than any backticks inside', () => {
    const body = selectionBody({ ...source, languageId: 'shellscript', text: 'echo ```x```', endLine: 12 }, 'echo');
    expect(body).toBe('# Echo\n\n````sh\necho ```x```\n````\n\nFrom `src/app.ts`, line 12, at commit 0123456789ab.\n');
  });

  it('keeps prose that opens with its own title as written; a source without a repository has no commit', () => {
    expect(selectionBody({ ...source, languageId: 'markdown', text: '# Note\n\nText.', commit: undefined }, 'x')).toBe(
      '# Note\n\nText.\n\nFrom `src/app.ts`, lines 12–14.\n',
    );
    expect(selectionBody({ ...source, languageId: 'plaintext', text: 'Prefer pnpm.' }, 'x')).toMatch(
      /^Prefer pnpm\.\n/,
    );
    expect(selectionBody({ ...source, languageId: 'markdown', text: '```\ncode\n```' }, 'a-b')).toMatch(
      /^# A b\n\n```\n/,
    );
  });

  it('never writes an absolute path or an editor link: with no known place, no source line at all', () => {
    expect(selectionBody({ ...source, path: undefined, commit: undefined }, 'log-the-value')).toBe(
      '# Log the value\n\n```typescript\nconst x = 1;\nconsole.log(x);\n```\n',
    );
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('typescript', 'markdown'), (text, languageId) => {
        const body = selectionBody({ ...source, text, languageId }, 'slug');
        return !/(?:vscode|code-oss):\/\//.test(body.replace(text, ''));
      }),
    );
  });
});
