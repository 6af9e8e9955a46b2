// The linter's packages, resolved from tools/lint/node_modules: there `typescript` is 5.9 (typescript-eslint needs
// its JS API), while the repository's own `typescript` is 7 (native tsc, no JS API). See README, "Lint and format".
export { default as js } from '@eslint/js';
export { default as tseslint } from 'typescript-eslint';
