import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertSlug } from '@agentm/core';
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
    link: 'vscode://file/repo/src/app.ts:12',
  };

  it('fences code with its language and links back to its file and lines', () => {
    expect(selectionBody(source)).toBe(
      '```typescript\nconst x = 1;\nconsole.log(x);\n```\n\nFrom [`src/app.ts`, lines 12–14](vscode://file/repo/src/app.ts:12)\n',
    );
  });

  it('uses the usual fence name, and a fence longer than any backticks inside', () => {
    const body = selectionBody({ ...source, languageId: 'shellscript', text: 'echo ```x```', endLine: 12 });
    expect(body).toBe('````sh\necho ```x```\n````\n\nFrom [`src/app.ts`, line 12](vscode://file/repo/src/app.ts:12)\n');
  });

  it('saves prose as written, and a selection outside a file without a link', () => {
    expect(selectionBody({ ...source, languageId: 'markdown', text: '# Note\n\nText.' })).toBe(
      '# Note\n\nText.\n\nFrom [`src/app.ts`, lines 12–14](vscode://file/repo/src/app.ts:12)\n',
    );
    expect(selectionBody({ ...source, path: undefined, link: undefined })).toBe(
      '```typescript\nconst x = 1;\nconsole.log(x);\n```\n',
    );
  });
});
