// Runs dependency-cruiser's CLI with the TypeScript 5.9 that tools/lint/node_modules holds. dependency-cruiser
// parses .ts files with TypeScript's JS API (it accepts TypeScript < 7); the repository compiles with TypeScript 7
// (native, no JS API), which is the `typescript` it would otherwise resolve. Arguments pass through unchanged.
import Module, { createRequire, register } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lintParent = `${here}/package.json`;
const lintRequire = createRequire(lintParent);
const isTypescript = (request) => request === 'typescript' || request.startsWith('typescript/');

// require() (dependency-cruiser reads the version from typescript/package.json this way)
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (!isTypescript(request) || parent?.filename === lintParent) {
    return resolveFilename.call(this, request, parent, ...rest);
  }
  return lintRequire.resolve(request);
};

// import() (how dependency-cruiser loads the compiler itself)
const typescriptUrl = pathToFileURL(lintRequire.resolve('typescript')).href;
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      return specifier === 'typescript' ? { url: ${JSON.stringify(typescriptUrl)}, shortCircuit: true } : next(specifier, context);
    }`)}`,
);

// The package's exports do not include its bin, so it is found by path from the repository's node_modules.
await import(
  pathToFileURL(`${here}/../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs`).href
);
