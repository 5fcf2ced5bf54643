// The lint rules every package shares (ESLint 9 flat config with typescript-eslint's type-aware rules).
// The root config applies them to core, the VS Code extension and the cross-package tests; the Obsidian
// plugin's own config (packages/obsidian-plugin/eslint.config.mjs) adds the community review's rules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Type-aware rules for TypeScript files, with the TS project of each file found by the project service. */
export function typeScript(files, tsconfigRootDir) {
  return tseslint.config({
    files,
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir },
      globals: { ...globals.node },
    },
    rules: {
      // A promise nobody awaits loses its error; a promise where a boolean or a void callback is expected
      // is always truthy or its rejection unhandled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The parsers match control characters on purpose (NUL, C0 controls in frontmatter and tokens).
      'no-control-regex': 'off',
    },
  });
}

/** Source files (not tests) never reach into a value through a double cast: the seam says what it offers. */
export function noDoubleCasts(files) {
  return {
    files,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression[typeAnnotation.type="TSUnknownKeyword"]',
          message:
            '`as unknown as` hides what a value is; declare the member on its type (the storage seam has a typed localRoot).',
        },
      ],
    },
  };
}

/** Plain JavaScript (build scripts, benchmarks, the e2e harness): ESLint's recommended rules on Node. */
export function javaScript(files) {
  return { files, ...js.configs.recommended, languageOptions: { globals: { ...globals.node } } };
}
