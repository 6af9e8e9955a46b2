// The layer order of ARCHITECTURE.md ("Layers"), checked by dependency-cruiser in `npm run lint` (lint:deps).
// A layer imports only from the layers below it; a file never reaches into a layer above, and nothing imports
// in a circle. Type-only imports count: a type that points up is a dependency that points up.
// Run: npm run lint:deps (tools/lint/depcruise.mjs, which gives dependency-cruiser TypeScript 5.9).

/** Bottom to top. A layer's files may import its own layer and those listed before it. */
const layers = [
  {
    name: 'base',
    path: '^src/(errors|limits|assert|deep-freeze|contract-version|random-pool|process-guard|clock)\\.ts$',
  },
  { name: 'domain', path: '^src/domain/' },
  { name: 'ports', path: '^src/ports/' },
  { name: 'data', path: '^src/(registry|signing)/' },
  { name: 'state', path: '^src/(accounts|postgres)/' },
  { name: 'contract', path: '^src/contract/' },
  { name: 'render', path: '^src/render/' },
  { name: 'pool', path: '^src/pool/' },
  { name: 'statements', path: '^src/statements/' },
  { name: 'ops', path: '^src/ops/' },
  { name: 'service', path: '^src/service/' },
  { name: 'metrics', path: '^src/metrics/' },
  { name: 'console', path: '^src/console/' },
  { name: 'transport', path: '^src/transport/' },
  { name: 'config', path: '^src/(config|logger)\\.ts$' },
  { name: 'entry', path: '^(src/(main|mcp-stdio|cli[^/]*)\\.[jt]s|workers/)' },
  { name: 'bench', path: '^bench/' },
];

/** One rule per layer: its files import nothing from the layers above it. */
const upward = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} is below ${layers
    .slice(index + 1)
    .map((above) => above.name)
    .join(', ')}: it must not import them (ARCHITECTURE.md, "Layers")`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: layers.slice(index + 1).map((above) => above.path) },
}));

export { layers };

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Files that import each other in a circle cannot be understood, tested or moved one at a time',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'ops-reach-state-through-ports',
      comment:
        'An op reaches mutable state only through the ports in its run context (ARCHITECTURE.md, "The capability context"), never a store',
      severity: 'error',
      from: { path: '^src/ops/' },
      to: {
        path: '^src/(accounts/(?!plans\\.ts$|periods\\.ts$)|registry/store/(?!types\\.ts$|registry-reader\\.ts$))',
      },
    },
    {
      name: 'layer-unplaced',
      comment:
        'Every file of src/, workers/ and bench/ sits in a layer above (a new folder gets its place in the list)',
      severity: 'error',
      from: { path: '^(src|workers|bench)/', pathNot: layers.map((layer) => layer.path) },
      to: {},
    },
    {
      name: 'layer-unplaced-target',
      comment:
        'Every file of src/, workers/ and bench/ sits in a layer above (a new folder gets its place in the list)',
      severity: 'error',
      from: {},
      to: { path: '^(src|workers|bench)/', pathNot: layers.map((layer) => layer.path) },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests and test kits sit beside the code they test and may reach anywhere; the layers are about production code.
    exclude: { path: '(\\.test\\.ts$|^test/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
