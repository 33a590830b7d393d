/**
 * "Show this line in the editor": a tiny event bus between the explanation (or anything else) and
 * the YAML editors. An editor can `onReveal` and return true when it has revealed and highlighted the
 * line. While no editor listens, a fallback does it from outside: it switches to the editor's tab and
 * selects the line (Monaco through its public API, or the plain textarea).
 */
import { useUi } from '../../state/store';
import { editorHandle } from '../editor/registry';
import { isPhone, setFold, usePhone } from '../phone/store';
import type { EditorWhich, YamlSpot } from './yaml-lines';

export type RevealListener = (spot: YamlSpot) => boolean;

const listeners = new Set<RevealListener>();

/** Listen for reveal requests; returns the unsubscribe function. */
export function onReveal(listener: RevealListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Ask the editors to reveal and highlight a line (switching to its tab first). */
export function requestReveal(spot: YamlSpot): void {
  useUi.setState({ editorTab: spot.which });
  // On a phone the editors fold to one line, hidden: a link to "policy line 8" did nothing there.
  // Unfold them first, and reveal once they are laid out.
  if (isPhone() && !usePhone.getState().open.editor) {
    setFold('editor', true);
    requestAnimationFrame(() => requestAnimationFrame(() => reveal(spot)));
    return;
  }
  reveal(spot);
}

function reveal(spot: YamlSpot): void {
  for (const l of listeners) if (l(spot)) return;
  void fallbackReveal(spot);
}

const MODEL_PREFIX = 'file:///fairground/';

async function fallbackReveal(spot: YamlSpot): Promise<void> {
  const handle = editorHandle(spot.which);
  if (handle?.kind === 'monaco') {
    const monaco = await import('monaco-editor/esm/vs/editor/editor.api.js');
    const editor = monaco.editor.getEditors().find((e) => {
      const uri = e.getModel()?.uri.toString() ?? '';
      return uri.startsWith(MODEL_PREFIX) && (spot.which === 'policy') === uri.endsWith('/policy.yaml');
    });
    if (!editor) return;
    const model = editor.getModel();
    if (!model) return;
    const line = Math.min(Math.max(1, spot.line), model.getLineCount());
    editor.revealLineInCenter(line);
    editor.setSelection(new monaco.Selection(line, 1, line, model.getLineMaxColumn(line)));
    editor.focus();
    return;
  }
  const area = document.querySelector<HTMLTextAreaElement>(`#editor-${spot.which} textarea`);
  if (!area) return;
  const lines = area.value.split('\n');
  const line = Math.min(Math.max(1, spot.line), lines.length);
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  area.focus();
  area.setSelectionRange(start, start + lines[line - 1].length);
  const lineHeight = Number.parseFloat(getComputedStyle(area).lineHeight) || 18;
  area.scrollTop = Math.max(0, (line - 4) * lineHeight);
}

export type { EditorWhich, YamlSpot };
