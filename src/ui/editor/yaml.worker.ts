// The YAML language worker of monaco-yaml, bundled by Vite from a local entry (see the monaco-yaml FAQ).
import 'monaco-yaml/yaml.worker.js';
