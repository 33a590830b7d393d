/**
 * The layers of src/, one direction (README: "Layout of src/"):
 *   core  <-  formats (format, policy, scenario, import)  <-  worker  <-  state / ui
 * and the CLI on core and formats only. `npm run lint` fails on any import against the arrows,
 * type-only imports included.
 */
const UI_LIBS = 'node_modules/(react|react-dom|d3|d3-[a-z-]+|comlink|monaco-editor|monaco-yaml|zustand)/';
module.exports = {
  forbidden: [
    {
      name: 'core-is-the-bottom-layer',
      comment: 'src/core is pure and deterministic: it imports nothing from the layers above it.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(format|policy|scenario|import|worker|state|ui|cli)/' },
    },
    {
      name: 'core-has-no-browser-libraries',
      comment: 'src/core runs in Node, the Web Worker and tests: no UI or RPC library.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: UI_LIBS },
    },
    {
      name: 'formats-below-the-worker',
      comment: 'The file formats sit on core only: no Web Worker, store or UI.',
      severity: 'error',
      from: { path: '^src/(format|policy|scenario|import)/' },
      to: { path: ['^src/(worker|state|ui|cli)/', UI_LIBS] },
    },
    {
      name: 'worker-below-the-ui',
      comment: 'The Web Workers serve the UI; they never reach into it.',
      severity: 'error',
      from: { path: '^src/worker/' },
      to: { path: '^src/(state|ui|cli)/' },
    },
    {
      name: 'cli-on-core-and-formats',
      comment: 'The command line uses core and the formats only.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: ['^src/(worker|state|ui)/', UI_LIBS] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    exclude: { path: '(^|/)node_modules/' },
  },
};
