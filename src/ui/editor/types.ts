/** What the rest of the UI needs from an editor, whether Monaco or the plain textarea fallback. */
import type { Problem } from '../../format/yaml';

export type EditorWhich = 'policy' | 'scenario';

/** What an editor holds: the scenario editor holds a cluster scenario or an arbitration script (`ops:`). */
export type DocKind = 'policy' | 'scenario' | 'script';

export function docKind(which: EditorWhich, text: string): DocKind {
  if (which === 'policy') return 'policy';
  return /^ops:/m.test(text) ? 'script' : 'scenario';
}

/** The name an editor's text goes by in its problems (`policy.yaml:11:19: …`) and the editor's model. */
export function docFileName(kind: DocKind): string {
  return `${kind}.yaml`;
}

export interface EditorMarker {
  line: number;
  col: number;
  message: string;
  /** `fairground` for our validators, `yaml` for monaco-yaml's schema checks. */
  owner: string;
  severity: 'error' | 'warning' | 'info';
}

export interface EditorHandle {
  readonly kind: 'monaco' | 'textarea';
  getValue(): string;
  /** Replace the text (from outside: a scenario switch, a share link); does not fire onChange. */
  setValue(text: string): void;
  /** Our validators' problems, shown as markers with owner `fairground`. */
  setProblems(problems: Problem[]): void;
  markers(): EditorMarker[];
  setTheme(theme: 'light' | 'dark'): void;
  focus(): void;
  /** Where the cursor is (1-based line and column). */
  position(): { line: number; col: number };
  /** Scroll to a position and put the cursor there. */
  reveal(line: number, col: number): void;
  dispose(): void;
}

export interface EditorOptions {
  which: EditorWhich;
  value: string;
  theme: 'light' | 'dark';
  label: string;
  onChange(text: string): void;
}
