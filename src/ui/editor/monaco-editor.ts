/**
 * Monaco with monaco-yaml: JSON-Schema hover and completion for the policy and the scenario, and
 * markers from our own validators (owner `fairground`), the same problems the CLI prints. Loaded with a dynamic import
 * so it never weighs on the initial page.
 */
import 'monaco-editor/esm/vs/editor/editor.all.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import { configureMonacoYaml } from 'monaco-yaml';
import { type Problem, problemText } from '../../format/yaml';
import { schemaFor } from './schemas';
import {
  type DocKind,
  docFileName,
  docKind,
  type EditorHandle,
  type EditorMarker,
  type EditorOptions,
} from './types';
import YamlWorker from './yaml.worker?worker';

export const OWNER = 'fairground';

globalThis.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string) {
    return label === 'yaml' ? new YamlWorker() : new EditorWorker();
  },
};

/**
 * monaco-yaml (through monaco-worker-manager) still asks for a worker by `{ moduleId, label, createData }`.
 * The full `monaco-editor` entry adapts that older call; we load the lighter `editor.api` entry, so we
 * adapt it here: create the worker, hand it its creation data, and pass it on as a ready worker.
 */
type LegacyWorkerOptions = {
  moduleId?: string;
  label?: string;
  createData?: unknown;
  host?: unknown;
  keepIdleModels?: boolean;
  worker?: unknown;
};
const createWebWorker = monaco.editor.createWebWorker;
(monaco.editor as unknown as { createWebWorker: (o: LegacyWorkerOptions) => unknown }).createWebWorker = (
  opts,
) => {
  if (opts.worker !== undefined) return createWebWorker(opts as Parameters<typeof createWebWorker>[0]);
  const label = opts.label ?? 'editorWorkerService';
  const worker = Promise.resolve(
    globalThis.MonacoEnvironment?.getWorker?.('workerMain.js', label) as Worker,
  ).then((w) => {
    w.postMessage('ignore');
    w.postMessage(opts.createData);
    return w;
  });
  return createWebWorker({
    worker,
    host: opts.host,
    keepIdleModels: opts.keepIdleModels,
  } as unknown as Parameters<typeof createWebWorker>[0]);
};

const MODEL_URI: Record<DocKind, string> = {
  policy: `file:///fairground/${docFileName('policy')}`,
  scenario: `file:///fairground/${docFileName('scenario')}`,
  script: `file:///fairground/${docFileName('script')}`,
};

configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  hover: true,
  completion: true,
  // Markers come from our own validators only (owner `fairground`): the same list, positions and words
  // as the CLI, one message per YAML syntax error instead of monaco-yaml's own cascade beside ours.
  validate: false,
  schemas: (['policy', 'scenario', 'script'] as const).flatMap((kind) => {
    const schema = schemaFor(kind);
    return schema
      ? [{ uri: `file:///fairground/schemas/${kind}.schema.json`, fileMatch: [MODEL_URI[kind]], schema }]
      : [];
  }),
});

const SEVERITY: Record<number, EditorMarker['severity']> = {
  [monaco.MarkerSeverity.Error]: 'error',
  [monaco.MarkerSeverity.Warning]: 'warning',
};

export function createEditor(host: HTMLElement, opts: EditorOptions): EditorHandle {
  let kind = docKind(opts.which, opts.value);
  const makeModel = (text: string) => {
    const uri = monaco.Uri.parse(MODEL_URI[kind]);
    monaco.editor.getModel(uri)?.dispose();
    return monaco.editor.createModel(text, 'yaml', uri);
  };
  let model = makeModel(opts.value);
  // Hovers, suggestions and quick fixes are drawn in a layer on <body>: the editor's column has
  // `contain: strict`, which clips anything inside it (a `position: fixed` widget included) at its edge.
  // The layer carries the `monaco-editor` class so Monaco's styles and theme colours reach it.
  const overflow = document.createElement('div');
  overflow.className = 'monaco-editor monaco-overflow-layer';
  document.body.appendChild(overflow);
  const editor = monaco.editor.create(host, {
    model,
    automaticLayout: true,
    minimap: { enabled: false },
    fontSize: 14,
    lineNumbersMinChars: 3,
    scrollBeyondLastLine: false,
    tabSize: 2,
    insertSpaces: true,
    wordWrap: 'on',
    // Wrap only at spaces: a key (`prefill_busy_threshold:`, `cached_token_queue_limit_per_worker:`)
    // is never split, the value moves to the continuation line, indented one level past its key.
    // Only a single word wider than the editor is cut (Monaco's last resort).
    wordWrapBreakAfterCharacters: ' \t',
    wordWrapBreakBeforeCharacters: '',
    wrappingIndent: 'indent',
    theme: opts.theme === 'dark' ? 'vs-dark' : 'vs',
    ariaLabel: opts.label,
    renderLineHighlight: 'line',
    fixedOverflowWidgets: true,
    overflowWidgetsDomNode: overflow,
    // Tab moves focus (keyboard-only use); YAML indents with spaces on Enter anyway.
    tabFocusMode: true,
    stickyScroll: { enabled: false },
    // Completions come from the schema only: words of the open documents (a description's
    // "1.5k") were offered after a value and taken by the Enter meant for a new line.
    wordBasedSuggestions: 'off',
  });
  let silent = false;
  const listen = () =>
    model.onDidChangeContent(() => {
      if (silent) return;
      const text = model.getValue();
      // A scenario turned into a script (or back): swap the model so the right schema applies.
      if (docKind(opts.which, text) !== kind)
        setTimeout(() => {
          if (docKind(opts.which, model.getValue()) !== kind) swap(model.getValue());
        }, 0);
      opts.onChange(text);
    });
  let sub = listen();
  const swap = (text: string) => {
    kind = docKind(opts.which, text);
    const old = model;
    const view = editor.saveViewState();
    sub.dispose();
    model = makeModel(text);
    editor.setModel(model);
    if (view) editor.restoreViewState(view);
    old.dispose();
    sub = listen();
  };
  const handle: EditorHandle = {
    kind: 'monaco',
    getValue: () => model.getValue(),
    setValue(text) {
      if (model.getValue() === text) return;
      if (docKind(opts.which, text) !== kind) {
        swap(text);
        return;
      }
      silent = true;
      try {
        model.setValue(text);
      } finally {
        silent = false;
      }
    },
    setProblems(problems: Problem[]) {
      monaco.editor.setModelMarkers(
        model,
        OWNER,
        problems.map((p) => {
          const line = Math.min(Math.max(1, p.line), model.getLineCount());
          const col = Math.max(1, p.col);
          return {
            startLineNumber: line,
            startColumn: col,
            endLineNumber: line,
            endColumn: Math.max(col + 1, model.getLineMaxColumn(line)),
            message: problemText(p),
            severity: monaco.MarkerSeverity.Error,
            source: 'Fairground',
          };
        }),
      );
    },
    markers() {
      return monaco.editor.getModelMarkers({ resource: model.uri }).map((m) => ({
        line: m.startLineNumber,
        col: m.startColumn,
        message: m.message,
        owner: m.owner,
        severity: SEVERITY[m.severity] ?? 'info',
      }));
    },
    setTheme(theme) {
      monaco.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs');
    },
    focus: () => editor.focus(),
    position() {
      const at = editor.getPosition();
      return { line: at?.lineNumber ?? 1, col: at?.column ?? 1 };
    },
    reveal(line, col) {
      editor.revealPositionInCenter({ lineNumber: line, column: col });
      editor.setPosition({ lineNumber: line, column: col });
      editor.focus();
    },
    dispose() {
      sub.dispose();
      editor.dispose();
      model.dispose();
      overflow.remove();
    },
  };
  return handle;
}
