// ESLint for the TypeScript sources: the rules VS Code's extension template starts with, plus promises that
// are neither awaited nor marked `void` (a lost rejection is a silent failure in the extension host).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'test/integration/workspace/**', 'demo/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'media/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 2022,
      sourceType: 'module',
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/naming-convention': ['error', { selector: 'import', format: ['camelCase', 'PascalCase'] }],
      curly: ['error', 'multi-line'],
      eqeqeq: 'error',
      'no-throw-literal': 'error',
      semi: 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
);
