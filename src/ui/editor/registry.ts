/** The live editors by name, for the test hook (`window.fairground.editor`). */
import type { EditorHandle, EditorWhich } from './types';

const handles = new Map<EditorWhich, EditorHandle>();

export function registerEditor(which: EditorWhich, handle: EditorHandle | null): void {
  if (handle) handles.set(which, handle);
  else handles.delete(which);
}

export function editorHandle(which: EditorWhich): EditorHandle | undefined {
  return handles.get(which);
}
