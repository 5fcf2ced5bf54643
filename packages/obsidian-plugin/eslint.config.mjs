// ESLint for the Obsidian plugin: the community plugin review's rules (eslint-plugin-obsidianmd, which
// brings ESLint's and typescript-eslint's type-checked recommended rules) on the plugin's sources, and
// the repository's shared rules on its tests. Run from this folder: the review's rules read manifest.json
// from the working directory (`pnpm --filter agentm-vault run lint`, part of the root `check:lint`).
import obsidianmd from 'eslint-plugin-obsidianmd';
import { noDoubleCasts, typeScript } from '../../eslint.base.mjs';

const SOURCES = ['src/**/*.ts'];

export default [
  { ignores: ['dist/**', 'node_modules/**'] },
  ...obsidianmd.configs.recommended.map((config) =>
    config.files || config.language ? { ...config, files: config.language ? config.files : SOURCES } : { ...config },
  ),
  {
    files: SOURCES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // The product is AgentM, in UI text too; the brands the plugin names keep their casing (this list replaces the rule's).
      'obsidianmd/ui/sentence-case': [
        'warn',
        {
          enforceCamelCaseLower: true,
          brands: ['AgentM', 'Obsidian', 'Google Drive', 'Dropbox', 'Syncthing', 'iCloud', 'OneDrive'],
        },
      ],
      // The settings tab validates each field as it is typed and shows the problem under it
      // (Setting.setErrorMessage); adopting the declarative settings API is a change of its own.
      'obsidianmd/settings-tab/prefer-setting-definitions': 'off',
    },
  },
  noDoubleCasts(SOURCES),
  ...typeScript(['test/**/*.ts'], import.meta.dirname),
];
