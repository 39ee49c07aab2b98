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

/**
 * Tests written before issue 16, which find elements by test id. Every other test queries
 * by role and label (what a person, or a screen reader, finds them by); these keep their
 * test ids until they are next rewritten. Do not add to this list.
 */
const TESTS_WITH_TEST_IDS = [
  'src/app/Shell.test.tsx',
  'src/app/boot.test.tsx',
  'src/app/observability/ui.test.tsx',
  'src/entities/instrument/api/live-quote.test.tsx',
  'src/features/auth/pages/auth.test.tsx',
  'src/features/dividends/pages/DividendsPage.test.tsx',
  'src/features/favorites/pages/FavoritesPage.test.tsx',
  'src/features/language-picker/components/LanguagePickerModal.test.tsx',
  'src/features/operator/pages/ErrorPages.test.tsx',
  'src/features/operator/pages/FeedbackPage.test.tsx',
  'src/features/operator/pages/ObserveConsole.test.tsx',
  'src/features/operator/pages/ProvidersPage.test.tsx',
  'src/features/operator/pages/SessionPage.test.tsx',
  'src/features/operator/pages/SessionsPage.test.tsx',
  'src/features/operator/pages/TracesPage.test.tsx',
  'src/features/operator/pages/VitalsPage.test.tsx',
  'src/features/portfolio/pages/ImportPage.test.tsx',
  'src/features/portfolio/pages/PortfolioDetailPage.test.tsx',
  'src/features/portfolio/pages/PortfolioListPage.test.tsx',
  'src/features/portfolio/pages/PortfolioManage.test.tsx',
  'src/features/portfolio/pages/TransactionFormPage.test.tsx',
  'src/features/search/pages/SearchPage.test.tsx',
  'src/features/settings/pages/SettingsPage.test.tsx',
  'src/pages/home/HomePage.test.tsx',
  'src/pages/stock/StockPage.test.tsx',
  'src/shared/bridge/BridgeProvider.test.tsx',
  'src/shared/ui/ErrorBoundary.test.tsx',
  'src/shared/ui/toast/toast.test.tsx',
];

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
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
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
      // TypeScript files are parsed (for cycles) and resolved (for `@/…`) like the compiler does.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
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
    rules: {
      // `renderApp()` returns the app's handle (its router location, query client), named `app`.
      'testing-library/render-result-naming-convention': 'off',
      // Focus moves and ARIA relationships are asserted through `document.activeElement`
      // and `aria-describedby`'s targets, which are the DOM itself.
      'testing-library/no-node-access': 'off',
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}'],
    ignores: TESTS_WITH_TEST_IDS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(get|getAll|query|queryAll|find|findAll)ByTestId$/]',
          message: 'Query by role and label (getByRole, getByLabelText), not by test id.',
        },
        {
          selector: 'CallExpression[callee.name=/^(get|getAll|query|queryAll|find|findAll)ByTestId$/]',
          message: 'Query by role and label (getByRole, getByLabelText), not by test id.',
        },
      ],
    },
  },
);
