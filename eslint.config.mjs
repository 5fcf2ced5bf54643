// ESLint for the repository (run by `npm test` through `check:lint`, zero warnings allowed). The Obsidian
// plugin has a config of its own (packages/obsidian-plugin/eslint.config.mjs): the community plugin
// review's rules read the plugin's manifest.json from the working directory.
import { javaScript, noDoubleCasts, typeScript } from './eslint.base.mjs';

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out/**',
      '.test-artifacts/**',
      'packages/obsidian-plugin/**',
      // Files that break the import rule on purpose (test/import-rules.test.ts).
      'test/fixtures/import-rules/**',
    ],
  },
  ...typeScript(
    ['packages/core/**/*.ts', 'packages/vscode-ext/**/*.ts', 'test/**/*.ts', 'vitest.config.ts'],
    import.meta.dirname,
  ),
  noDoubleCasts(['packages/core/src/**/*.ts', 'packages/vscode-ext/src/**/*.ts']),
  javaScript(['**/*.mjs', '**/*.js', '**/*.cjs']),
];
