// Bundles the CLI once (npm install runs this as `prepare`) so `ibanqa ...` starts without transpiling
// TypeScript on every call. npm packages stay external imports; only our own modules are bundled.
// import.meta.url is replaced by each module's own source URL, so paths relative to a source file
// (proto/, data/, workers/) resolve exactly as they do under tsx. dist/cli-inputs.json lists the
// bundled sources: src/cli-entry.js runs tsx instead whenever one of them is newer than the bundle.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { relative } from 'node:path';

/** esbuild comes with tsx; should it ever be missing, the CLI simply keeps running through tsx. */
async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    process.stderr.write(
      'ibanqa: esbuild not found, the CLI will run through tsx (slower start)\n',
    );
    return undefined;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist', import.meta.url));

const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      );
      return { contents, loader: 'ts' };
    });
  },
};

const esbuild = await loadEsbuild();
if (esbuild === undefined) process.exit(0);
await mkdir(outdir, { recursive: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
  plugins: [ownImportMetaUrl],
});
const inputs = Object.keys(result.metafile.inputs).map((input) =>
  relative(root, `${root}/${input}`),
);
await writeFile(
  new URL('../dist/cli-inputs.json', import.meta.url),
  `${JSON.stringify({ built_at: new Date().toISOString(), inputs })}\n`,
);
