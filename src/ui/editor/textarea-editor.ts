/**
 * The editor of last resort: a plain <textarea> (the panel lists its problems under it, as for
 * Monaco). Used when Monaco fails to load (or with `?editor=plain`), so editing always works.
 */
import { type Problem, problemText } from '../../format/yaml';
import type { EditorHandle, EditorOptions } from './types';

export function createTextareaEditor(host: HTMLElement, opts: EditorOptions): EditorHandle {
  const area = document.createElement('textarea');
  area.className = 'plain-editor';
  area.spellcheck = false;
  area.value = opts.value;
  area.setAttribute('aria-label', opts.label);
  host.append(area);
  let problems: Problem[] = [];
  const onInput = () => opts.onChange(area.value);
  area.addEventListener('input', onInput);
  return {
    kind: 'textarea',
    getValue: () => area.value,
    setValue(text) {
      if (area.value !== text) area.value = text;
    },
    setProblems(next) {
      problems = next;
    },
    markers: () =>
      problems.map((p) => ({
        line: p.line,
        col: p.col,
        message: problemText(p),
        owner: 'fairground',
        severity: 'error' as const,
      })),
    setTheme() {},
    focus: () => area.focus(),
    position() {
      const before = area.value.slice(0, area.selectionStart).split('\n');
      return { line: before.length, col: before[before.length - 1].length + 1 };
    },
    reveal(line, col) {
      const lines = area.value.split('\n');
      let at = 0;
      for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
      at += Math.max(0, col - 1);
      area.focus();
      area.setSelectionRange(at, at);
    },
    dispose() {
      area.removeEventListener('input', onInput);
      area.remove();
    },
  };
}
