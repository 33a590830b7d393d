import { describe, expect, it } from 'vitest';
import { actionFor, type FocusInfo, KEY_ACTIONS, KEY_HELP, keyOf } from '../../../src/ui/keys';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  ...mods,
});
const on = (tag: string, extra: Partial<FocusInfo> = {}): FocusInfo => ({
  tag,
  type: '',
  role: '',
  editable: false,
  inEditor: false,
  ...extra,
});
const slider = on('INPUT', { type: 'range' });
const id = (k: string, f: FocusInfo | null, modal = false) => actionFor(key(k), f, modal)?.id ?? null;

describe('the keyboard action registry', () => {
  it('maps each key to its named action with nothing focused', () => {
    expect(id(' ', null)).toBe('play-pause');
    expect(id('ArrowRight', null)).toBe('step');
    expect(id('ArrowLeft', null)).toBe('step-back');
    expect(id('r', null)).toBe('reset');
    expect(id('R', null)).toBe('reset');
    expect(id('p', null)).toBe('present');
    expect(id('P', null)).toBe('present');
    expect(id('?', null)).toBe('help');
    expect(id('Escape', null)).toBe('leave');
    expect(id('x', null)).toBeNull();
  });

  it('a focused slider (the timeline) keeps its arrows, not the letters or Space', () => {
    expect(id('p', slider)).toBe('present');
    expect(id('r', slider)).toBe('reset');
    expect(id('?', slider)).toBe('help');
    expect(id(' ', slider)).toBe('play-pause');
    expect(id('Escape', slider)).toBe('leave');
    expect(id('ArrowRight', slider)).toBeNull();
    expect(id('ArrowLeft', slider)).toBeNull();
  });

  it('nothing fires while typing: text fields, text areas, list boxes, the editor, editable text', () => {
    for (const f of [
      on('INPUT', { type: 'text' }),
      on('INPUT', { type: 'number' }),
      on('INPUT', { type: 'search' }),
      on('TEXTAREA'),
      on('SELECT', { type: 'select-multiple' }),
      on('DIV', { inEditor: true }),
      on('DIV', { editable: true }),
    ])
      for (const k of [' ', 'ArrowRight', 'p', 'r', '?', 'Escape'])
        expect(id(k, f), `${f.tag} ${f.type} ${k}`).toBeNull();
  });

  it('a drop-down (the Scenario picker, focused after a pick) keeps Space, ↑ / ↓ and letters; ← / → step', () => {
    const picker = on('SELECT', { type: 'select-one' });
    expect(id('ArrowRight', picker)).toBe('step');
    expect(id('ArrowLeft', picker)).toBe('step-back');
    for (const k of [' ', 'ArrowDown', 'ArrowUp', 'p', 'r', '?']) expect(id(k, picker), k).toBeNull();
  });

  // In the short window's Menu the picker is one of the menu's controls: Escape there left the Menu
  // open, where it closes it from every other control. Its list open, Escape closes the list only.
  it("a drop-down gives Escape to the page (closing the phone's Menu), unless its list is open", () => {
    expect(id('Escape', on('SELECT', { type: 'select-one' }))).toBe('leave');
    expect(id('Escape', on('SELECT', { type: 'select-one', open: true }))).toBeNull();
    expect(id('Escape', on('SELECT', { type: 'select-multiple' }))).toBeNull();
  });

  it('Space presses a focused button, checkbox or tab; arrows move a tab; letters still fire there', () => {
    for (const f of [on('BUTTON'), on('INPUT', { type: 'checkbox' }), on('DIV', { role: 'tab' })]) {
      expect(id(' ', f)).toBeNull();
      expect(id('p', f)).toBe('present');
    }
    expect(id('ArrowRight', on('BUTTON', { role: 'tab' }))).toBeNull();
    // a focused view (a section with a tab stop) or the log: arrows move the playhead
    expect(id('ArrowRight', on('SECTION'))).toBe('step');
    expect(id('ArrowLeft', on('OL', { role: 'log' }))).toBe('step-back');
    expect(id(' ', on('SECTION'))).toBe('play-pause');
  });

  it('nothing fires with a modal dialog open, with Ctrl/Alt/Meta, or when an element handled the key', () => {
    for (const k of [' ', 'ArrowRight', 'p', 'Escape']) expect(id(k, null, true)).toBeNull();
    expect(actionFor(key('r', { ctrlKey: true }), null, false)).toBeNull();
    expect(actionFor(key('p', { metaKey: true }), null, false)).toBeNull();
    expect(actionFor(key('ArrowRight', { altKey: true }), null, false)).toBeNull();
    expect(actionFor({ ...key('Escape'), defaultPrevented: true }, null, false)).toBeNull();
  });

  it('the help lists every action with its key, and the controls read their key from it', () => {
    for (const a of KEY_ACTIONS) expect(KEY_HELP).toContainEqual([a.label, a.does]);
    expect(new Set(KEY_ACTIONS.flatMap((a) => a.keys)).size).toBe(KEY_ACTIONS.flatMap((a) => a.keys).length);
    expect(keyOf('play-pause')).toBe('Space');
    expect(keyOf('present')).toBe('P');
  });
});
