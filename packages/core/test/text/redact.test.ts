import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsSecret, isSecretName, redactSecrets, scrubIncident, secretValues } from '../../src/text/redact.js';

const K = '[REDACTED-API-KEY]';

describe('redactSecrets', () => {
  it.each([
    ['an OpenAI key', 'key sk-abcdefghijklmnopqrstuvwx1234 here', `key ${K} here`],
    ['a project key with dashes', 'sk-proj-AbCdEf_0123456789-abcdefghij', K],
    ['an Anthropic key', 'x=sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA;', `x=${K};`],
    ['a GitHub token', 'token ghp_0123456789abcdefghijABCDEFGHIJ012345', `token ${K}`],
    ['a GitHub server token', 'ghs_0123456789abcdefghijABCDEFGHIJ012345.', `${K}.`],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', K],
    ['a GitLab token', 'glpat-abcdefghij0123456789', K],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE and more', `${K} and more`],
    ['a Slack token', 'xoxb-1234567890-abcdefghij', K],
    ['a bearer header', 'Authorization: Bearer abc.def-ghi_jkl~mno', `Authorization: Bearer ${K}`],
    ['a lower-case bearer', 'bearer 0123456789abcdef', `bearer ${K}`],
  ])('removes %s', (_what, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['a short sk- word', 'ask-me-anything and sk-short'],
    ['a hyphenated word ending in sk', 'risk-assessment-of-the-whole-system'],
    ['a hash', 'sha 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
    ['AKIA inside a word', 'XAKIAIOSFODNN7EXAMPLE'],
    ['the word bearer alone', 'the bearer of news'],
    ['plain prose', 'Run npm test, then ship.'],
  ])('keeps %s', (_what, text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('removes known secrets of any shape, longest first, and leaves too-short ones alone', () => {
    expect(redactSecrets('a hunter2-local b hunter2-local-long c', ['hunter2-local', 'hunter2-local-long'])).toBe(
      `a ${K} b ${K} c`,
    );
    expect(redactSecrets('abc abc', ['abc'])).toBe('abc abc');
  });

  it('containsSecret says whether anything would be removed', () => {
    expect(containsSecret('nothing here')).toBe(false);
    expect(containsSecret('my-local-key', ['my-local-key'])).toBe(true);
  });

  it('is idempotent and never leaves a key-shaped string behind (property)', () => {
    const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    const keyBody = fc.array(alnum, { minLength: 20, maxLength: 40 }).map((a) => a.join(''));
    const key = fc.oneof(
      keyBody.map((b) => `sk-${b}`),
      keyBody.map((b) => `ghp_${b}`),
      keyBody.map((b) => `glpat-${b}`),
    );
    fc.assert(
      fc.property(fc.string(), key, fc.string(), (before, k, after) => {
        const text = `${before} ${k} ${after}`;
        const once = redactSecrets(text);
        expect(once).not.toContain(k);
        expect(redactSecrets(once)).toBe(once);
      }),
    );
  });
});

describe('scrubIncident', () => {
  it.each([
    ['an e-mail', 'mail jane.doe+x@example.co.uk now', 'mail [REDACTED-EMAIL] now', { EMAIL: 1 }],
    ['a macOS home path', 'at /Users/jane/src/app/main.ts:3', 'at [REDACTED-PATH]', { PATH: 1 }],
    ['a Linux home path', 'open /home/bob/.ssh/id_rsa failed', 'open [REDACTED-PATH] failed', { PATH: 1 }],
    ['a Windows home path', 'C:\\Users\\Ann\\AppData\\x.log: denied', '[REDACTED-PATH] denied', { PATH: 1 }],
    ['an API key', 'key sk-abcdefghijklmnopqrstuvwxyz', `key ${K}`, { 'API-KEY': 1 }],
    ['a GitHub token', 'gho_abcdefghijklmnopqrstuvwxyz0123456789', K, { 'API-KEY': 1 }],
    ['an AWS key', 'AKIAABCDEFGHIJKLMNOP', K, { 'API-KEY': 1 }],
    ['a dashed phone', 'call 555-123-4567.', 'call [REDACTED-PHONE].', { PHONE: 1 }],
    ['a phone in parentheses', '(555) 123-4567', '[REDACTED-PHONE]', { PHONE: 1 }],
    ['a dotted phone with +1', '+1 555.123.4567', '[REDACTED-PHONE]', { PHONE: 1 }],
    ['a phone with 1-', '1-555-123-4567', '[REDACTED-PHONE]', { PHONE: 1 }],
  ])('replaces %s', (_what, text, expected, counts) => {
    const result = scrubIncident(text);
    expect(result.text).toBe(expected);
    expect(result.counts).toMatchObject(counts);
  });

  it.each([
    ['a date', 'on 2026-11-25 at 12:00:00'],
    ['an IP address', 'host 127.0.0.1:8080'],
    ['a version', 'node v20.12.2 and 1.2.3'],
    ['a non-home path', 'see /usr/local/bin/node and /var/log/syslog'],
    ['a relative path', 'src/home/user.ts'],
    ['an at-sign without a domain', 'ping @jane about it'],
    ['a long number', 'id 123456789012'],
  ])('keeps %s', (_what, text) => {
    expect(scrubIncident(text)).toEqual({ text, counts: { 'API-KEY': 0, EMAIL: 0, PATH: 0, PHONE: 0 } });
  });

  it('refuses text it cannot scrub reliably (a lone surrogate)', () => {
    const result = scrubIncident('mail jane@example.com \uD800 end');
    expect(result.text).toBeUndefined();
    expect(result.refused).toMatch(/not well-formed Unicode/);
  });

  it('leaves no personal data behind in arbitrary text (property)', () => {
    const pii = fc.constantFrom(
      'jane@example.com',
      '/Users/jane/x',
      '/home/bob',
      'C:\\Users\\Ann\\y',
      '555-123-4567',
      'sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    );
    fc.assert(
      fc.property(fc.string(), pii, fc.string(), (before, p, after) => {
        const result = scrubIncident(`${before} ${p} ${after}`);
        if (result.refused) return;
        expect(result.text).not.toContain(p);
        expect(scrubIncident(result.text!).text).toBe(result.text);
      }),
    );
  });
});

describe('secret names and values', () => {
  it.each([
    ['AGENTM_LLM_API_KEY', true],
    ['AGENTM_EMBED_API_KEY', true],
    ['OPENAI_API_KEY', true],
    ['GITHUB_TOKEN', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['AWS_SECRET', true],
    ['DB_PASSWORD', true],
    ['PATH', false],
    ['HOME', false],
    ['AGENTM_LLM_BASE_URL', false],
    ['TOKENIZER_THREADS', false],
  ])('%s is secret: %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it('collects the values of secret variables and secret config keys', () => {
    expect(
      secretValues(
        { AGENTM_LLM_API_KEY: 'env-key-1', PATH: '/bin', GH_TOKEN: ' tok-2 ', EMPTY_TOKEN: '' },
        { 'providers.chat.api_key': 'cfg-key-3', 'providers.chat.model': 'm', 'x.token': 5 },
      ).sort(),
    ).toEqual(['cfg-key-3', 'env-key-1', 'tok-2']);
  });
});
