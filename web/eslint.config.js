// ESLint (flat config). `npm run lint` runs it with zero warnings allowed; CI runs it
// right after the web build (scripts/test.sh).
//
// The layers and their one-way imports (README, docs/ARCHITECTURE.md):
//   shared → entities → features → pages → app
// A layer imports only the layers to its left. A feature never imports another feature,
// and what sits above the features (pages, app) reaches a feature only through its
// `index.ts`. Tests and the test helpers (src/test) may import anything.
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import testingLibrary from 'eslint-plugin-testing-library';
import tseslint from 'typescript-eslint';

/** The folders of `src/<layer>/` (each area, entity or composed page is one). */
const slices = (layer) => {
  const dir = new URL(`./src/${layer}/`, import.meta.url);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
};

const FEATURES = slices('features');
const PAGES = slices('pages');

const TESTS = ['src/**/*.test.{ts,tsx}', 'src/test/**'];

/** No slice of `layer` imports another slice of the same layer. */
const isolated = (layer, names) =>
  names.map((name) => ({
    target: `./src/${layer}/${name}`,
    from: `./src/${layer}`,
    except: [`./${name}`],
    message: `One ${layer.replace(/s$/, '')} never imports another: compose them above (pages or app), through slots.`,
  }));

/** Above the features, a feature is reached only through its public `index.ts`. */
const throughIndex = (layer, names) =>
  names.map((name) => ({
    target: ['./src/pages', './src/app'],
    from: `./src/${layer}/${name}`,
    except: ['./index.ts'],
    message: `Import the ${layer.replace(/s$/, '')} from '@/${layer}/${name}' (its index.ts), not its files.`,
  }));

const LAYER_ZONES = [
  {
    target: './src/shared',
    from: ['./src/entities', './src/features', './src/pages', './src/app', './src/webview-host'],
    message: 'shared/ is generic: it imports nothing above it.',
  },
  {
    target: './src/entities',
    from: ['./src/features', './src/pages', './src/app', './src/webview-host'],
    message: 'entities/ import only shared/ (and each other).',
  },
  {
    target: './src/features',
    from: ['./src/pages', './src/app', './src/webview-host'],
    message: 'A feature imports only shared/ and entities/.',
  },
  {
    target: './src/pages',
    from: ['./src/app', './src/webview-host'],
    message: 'pages/ are composed by the app, never the other way round.',
  },
  {
    target: './src/webview-host',
    from: ['./src/entities', './src/features', './src/pages'],
    message: 'The web-view host page is its own entry: shared/ only (and the app bootstrap).',
  },
  {
    target: './src/webview-host',
    from: './src/app',
    except: ['./webview-host-bootstrap.ts'],
    message: 'The web-view host page is its own entry: shared/ only (and the app bootstrap).',
  },
  ...isolated('features', FEATURES),
  ...isolated('pages', PAGES),
  ...throughIndex('features', FEATURES),
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/shared/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    extends: [jsxA11y.flatConfigs.recommended],
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-duplicates': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: TESTS,
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}'],
    extends: [testingLibrary.configs['flat/react']],
  },
);
