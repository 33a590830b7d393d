/**
 * The editor of last resort: a plain <textarea> with the problems listed under it. Used when Monaco
 * fails to load (or with `?editor=plain`), so editing always works.
 */
import type { Problem } from '../../format/yaml';
import type { EditorHandle, EditorOptions } from './types';

export function createTextareaEditor(host: HTMLElement, opts: EditorOptions): EditorHandle {
  const area = document.createElement('textarea');
  area.className = 'plain-editor';
  area.spellcheck = false;
  area.value = opts.value;
  area.setAttribute('aria-label', opts.label);
  const list = document.createElement('ul');
  list.className = 'plain-problems';
  host.append(area, list);
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
      list.replaceChildren(
        ...next.map((p) => {
          const li = document.createElement('li');
          li.textContent = `${p.line}:${p.col}: ${p.message}`;
          return li;
        }),
      );
    },
    markers: () =>
      problems.map((p) => ({
        line: p.line,
        col: p.col,
        message: p.message,
        owner: 'fairground',
        severity: 'error' as const,
      })),
    setTheme() {},
    focus: () => area.focus(),
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
      list.remove();
    },
  };
}
