/**
 * The editor of last resort: a plain <textarea> (the panel lists its problems under it, as for
 * Monaco). Used when Monaco fails to load (or with `?editor=plain`), so editing always works.
 *
 * A textarea lays out its whole value: 50 MB froze Chromium for 12–16 s whatever the wrapping
 * (#15: no paste may make the page run past its budget). A text longer than PLAIN_EDITOR_MAX_CHARS
 * (twice what a document may hold, so it could never be valid) is therefore held, not shown: the
 * paste that brings it is taken over, the text is kept and saved as any edit is, its problems are
 * listed, and a note in place of the textarea offers it as a file or a fresh start.
 */
import { groupDigits, type Problem, problemText, YAML_LIMITS } from '../../format/yaml';
import { downloadText } from '../features/download';
import type { EditorHandle, EditorOptions } from './types';

/** Longer texts are held, not put in the textarea. */
export const PLAIN_EDITOR_MAX_CHARS = 2 * YAML_LIMITS.maxBytes;

const millions = (n: number) => `${(n / 1e6).toFixed(1)} million`;

export function createTextareaEditor(host: HTMLElement, opts: EditorOptions): EditorHandle {
  const area = document.createElement('textarea');
  area.className = 'plain-editor';
  area.spellcheck = false;
  area.setAttribute('aria-label', opts.label);
  const note = document.createElement('div');
  note.className = 'plain-held';
  note.setAttribute('role', 'alert');
  note.hidden = true;
  host.append(area, note);
  /** The text, when too long to show (the textarea is then hidden and empty). */
  let held: string | null = null;
  let problems: Problem[] = [];

  const hold = (text: string) => {
    held = text;
    area.value = '';
    area.hidden = true;
    note.hidden = false;
    const say = document.createElement('p');
    say.textContent = `This text is ${millions(text.length)} characters: too long to show here without freezing the page, and over the ${groupDigits(YAML_LIMITS.maxBytes)} characters a document may hold. It is kept as it is.`;
    const save = document.createElement('button');
    save.type = 'button';
    save.className = 'small';
    save.textContent = 'Download this text';
    save.addEventListener('click', () => {
      if (held !== null) downloadText(held, `fairground-${opts.which}.yaml`, 'text/yaml');
    });
    const fresh = document.createElement('button');
    fresh.type = 'button';
    fresh.className = 'small';
    fresh.textContent = 'Start over with an empty text';
    fresh.addEventListener('click', () => {
      show('');
      opts.onChange('');
      area.focus();
    });
    note.replaceChildren(say, save, fresh);
  };
  const show = (text: string) => {
    held = null;
    note.hidden = true;
    note.replaceChildren();
    area.hidden = false;
    if (area.value !== text) area.value = text;
  };
  const put = (text: string) => (text.length > PLAIN_EDITOR_MAX_CHARS ? hold(text) : show(text));
  put(opts.value);

  /** A paste or drop that would make the text too long: the text is held, the textarea spared. */
  const takeOver = (incoming: string | undefined, e: Event) => {
    if (incoming === undefined) return;
    const { selectionStart: from, selectionEnd: to, value } = area;
    if (value.length - (to - from) + incoming.length <= PLAIN_EDITOR_MAX_CHARS) return;
    e.preventDefault();
    const text = value.slice(0, from) + incoming + value.slice(to);
    hold(text);
    opts.onChange(text);
    focusNote();
  };
  const focusNote = () => (note.querySelector('button') as HTMLButtonElement | null)?.focus();
  const onPaste = (e: ClipboardEvent) => takeOver(e.clipboardData?.getData('text/plain'), e);
  const onDrop = (e: DragEvent) => takeOver(e.dataTransfer?.getData('text/plain') || undefined, e);
  const onInput = () => opts.onChange(area.value);
  area.addEventListener('paste', onPaste);
  area.addEventListener('drop', onDrop);
  area.addEventListener('input', onInput);
  return {
    kind: 'textarea',
    getValue: () => held ?? area.value,
    setValue(text) {
      if ((held ?? area.value) !== text) put(text);
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
    focus: () => (held === null ? area.focus() : focusNote()),
    position() {
      if (held !== null) return { line: 1, col: 1 };
      const before = area.value.slice(0, area.selectionStart).split('\n');
      return { line: before.length, col: before[before.length - 1].length + 1 };
    },
    reveal(line, col) {
      if (held !== null) return;
      const lines = area.value.split('\n');
      let at = 0;
      for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
      at += Math.max(0, col - 1);
      area.focus();
      area.setSelectionRange(at, at);
    },
    dispose() {
      area.removeEventListener('paste', onPaste);
      area.removeEventListener('drop', onDrop);
      area.removeEventListener('input', onInput);
      area.remove();
      note.remove();
    },
  };
}
