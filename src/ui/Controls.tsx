import { Fragment, type ReactNode, useRef } from 'react';
import { setTheme, usePrefs } from '../state/prefs';
import { useEdits } from '../state/edits';
import { SPEEDS, speedLabel, useUi } from '../state/store';
import { bGoesOn, useCompare } from './compare/store';
import type { Driver } from './driver';
import { focusInfo, handsKeysBack, keyOf } from './keys';
import { usePhone, usePhoneLayout, useShortMenu } from './phone/store';
import { SCENARIOS, scenarioGroups } from './scenarios';
import { share } from './share/share';

export function formatSimTime(t: number): string {
  return `${t.toFixed(3)} s`;
}

/** The speed next to the slider, short so the masthead fits one row (the slider says it in full). */
function shortSpeed(index: number): string {
  return speedLabel(index)
    .replace(/ decisions?\/s$/, '/s')
    .replace('as fast as possible', 'max');
}

/**
 * After a mouse click, give the focus back to the page so that Space means Play/Pause (as the help
 * says) rather than "press the button I clicked last". Keyboard presses (detail 0) keep the focus.
 */
function blurAfterPointer(e: React.MouseEvent<HTMLButtonElement>): void {
  if (e.detail > 0) e.currentTarget.blur();
}

/** Play/Pause, Step back, Step and Reset: the playground's masthead and the embed strip share them. */
export function Transport({ driver }: { driver: Driver }) {
  const playing = useUi((s) => s.playing);
  const doneA = useUi((s) => s.done);
  // comparing: the run that ended stays at its end while the other goes on; over once both ended
  const bOn = useCompare(bGoesOn);
  const done = doneA && !bOn;
  const kind = useUi((s) => s.kind);
  const atStart = useUi((s) => s.decisionCount === 0);
  return (
    <>
      <button
        type="button"
        className="primary"
        data-transport="play"
        onClick={(e) => {
          blurAfterPointer(e);
          driver.toggle();
        }}
        disabled={done && !playing}
        // named for what a press does: while anything plays it pauses, whichever run is moving
        title={
          playing
            ? doneA && bOn
              ? `Pause run B (${keyOf('play-pause')}): A is over and stays at its end`
              : `Pause (${keyOf('play-pause')})`
            : done
              ? 'The run is over: Reset to start again'
              : doneA
                ? `Play run B on to its end: A is over and stays at its end (${keyOf('play-pause')})`
                : `Play (${keyOf('play-pause')})`
        }
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button
        type="button"
        className="step-back"
        aria-label="Previous decision"
        onClick={(e) => {
          blurAfterPointer(e);
          void driver.stepBack();
        }}
        disabled={atStart}
        title={
          kind === 'arbitration'
            ? `One enqueue or pop back (${keyOf('step-back')}): replays from the nearest restore point`
            : `One scheduling decision back (${keyOf('step-back')}): replays from the nearest restore point`
        }
      >
        <span aria-hidden="true">◀</span>
      </button>
      <button
        type="button"
        onClick={(e) => {
          blurAfterPointer(e);
          void driver.step(1);
        }}
        disabled={done}
        title={
          done
            ? 'The run is over: Reset to start again, or step back'
            : doneA
              ? `One decision of run B forward: A is over (${keyOf('step')})`
              : kind === 'arbitration'
                ? `One enqueue or one pop forward (${keyOf('step')})`
                : `One scheduling decision forward (${keyOf('step')})`
        }
      >
        Step
      </button>
      <button
        type="button"
        onClick={(e) => {
          blurAfterPointer(e);
          void driver.reset();
        }}
        title={`Restart from t = 0 (${keyOf('reset')})`}
      >
        Reset
      </button>
    </>
  );
}

/** The current simulated time (a step count in the DRR sandbox), named as the UI contract says. */
export function SimTime() {
  const simTime = useUi((s) => s.simTime);
  const kind = useUi((s) => s.kind);
  return (
    <output className="sim-time" aria-label="Simulated time" aria-live="off" title="Simulated time">
      {kind === 'arbitration' ? `step ${simTime}` : formatSimTime(simTime)}
    </output>
  );
}

/**
 * What the picker shows instead of a shipped scenario's title, null for that title: '(custom)' for a
 * text that is no shipped scenario, '(custom) <name>' when the edited text's run has another name,
 * '<title> (edited)' for a shipped scenario's text edited.
 */
export function pickerCustom(shippedTitle: string | null, edited: boolean, runName: string): string | null {
  if (shippedTitle === null) return runName ? `(custom) ${runName}` : '(custom)';
  if (!edited) return null;
  return runName && runName !== shippedTitle ? `(custom) ${runName}` : `${shippedTitle} (edited)`;
}

export function Controls({
  driver,
  extra,
  menu,
}: {
  driver: Driver;
  extra?: React.ReactNode;
  /**
   * The phone's Menu button (hidden on wider screens), drawn where it is seen: beside the scenario
   * picker ('first', below 600 px) or after the clock ('last', 600–899 px), so Tab follows the row.
   */
  menu?: (place: 'first' | 'last') => React.ReactNode;
}) {
  const speedIndex = useUi((s) => s.speedIndex);
  const scenarioId = useUi((s) => s.scenarioId);
  const theme = usePrefs((s) => s.theme);
  const shipped = SCENARIOS.find((s) => s.id === scenarioId);
  const known = shipped !== undefined;
  // the editors no longer hold the shipped text: the picker says so rather than name it as shipped
  const edited = useEdits(
    (s) => s.texts.scenario !== s.original.scenario || s.texts.policy !== s.original.policy,
  );
  const runName = useUi((s) => s.scenarioName);
  const custom = pickerCustom(shipped?.title ?? null, edited, runName);
  // Picked with the mouse (or a tap), the picker kept the focus, and the lesson's next key went to it:
  // P and R chose 'Paper: …' and 'Preble' by their first letter, Space opened the list. A pointer pick
  // lets the focus go, so the page's shortcuts work at once; a keyboard user keeps the focus (and the
  // list's ↑ / ↓ and typing).
  const byPointer = useRef(false);

  const phone = usePhoneLayout();
  const short = useShortMenu();
  const picker = (
    <label key="picker" className="field scenario-field">
      <span className="vh">Scenario</span>
      <select
        aria-label="Scenario"
        value={custom === null ? scenarioId : ''}
        onPointerDown={() => {
          byPointer.current = true;
        }}
        onKeyDown={(e) => {
          byPointer.current = false;
          // done picking: the focus goes to Play, and R, P, Space are the page's again (keys.ts)
          // (Escape in the phone's open Menu closes it, and the focus goes back to Menu)
          if (
            handsKeysBack(e, focusInfo(e.currentTarget)) &&
            !(e.key === 'Escape' && usePhone.getState().menu)
          ) {
            if (e.key === 'Enter') e.preventDefault();
            document.querySelector<HTMLElement>('[data-transport="play"]')?.focus();
          }
        }}
        onChange={(e) => {
          useUi.setState({ message: null });
          void driver.openScenario(e.target.value);
          if (byPointer.current) e.currentTarget.blur();
          byPointer.current = false;
        }}
        title={
          custom === null
            ? `${shipped?.title ?? ''}: pick another shipped scenario or DRR sandbox script`
            : `${custom}: ${known ? `your text, not the shipped "${shipped.title}" (Revert goes back to it); ` : ''}pick a shipped scenario or DRR sandbox script`
        }
      >
        {custom !== null && <option value="">{custom}</option>}
        {scenarioGroups().map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.scenarios.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
                {s.kind === 'arbitration' ? ' — DRR sandbox' : ''}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
  const speed = (
    <label key="speed" className="field speed">
      <span>Speed</span>
      <input
        type="range"
        aria-label="Speed"
        min={0}
        max={SPEEDS.length - 1}
        step={1}
        value={speedIndex}
        aria-valuetext={speedLabel(speedIndex)}
        title="Decisions per second while playing"
        onChange={(e) => useUi.getState().setSpeedIndex(Number(e.target.value))}
      />
      <span className="speed-value" aria-hidden="true">
        {shortSpeed(speedIndex)}
      </span>
    </label>
  );
  const transport = (
    <Fragment key="transport">
      <Transport driver={driver} />
    </Fragment>
  );
  const time = <SimTime key="time" />;
  const first = <Fragment key="menu-first">{menu?.('first')}</Fragment>;
  const last = <Fragment key="menu-last">{menu?.('last')}</Fragment>;
  // on a phone the transport starts a row of its own
  const brk = menu ? <span key="break" className="toolbar-break" aria-hidden="true" /> : null;
  // before it the header's rows, after it what the phone's Menu unfolds (theme.css)
  const gap = <span key="gap" className="toolbar-gap" />;
  // The parts are in the page in the order they are drawn, so that Tab follows what is seen (CSS
  // `order` moves boxes, not the Tab order); keyed, each keeps its element (and the focus) when the
  // window changes layout. Desktop: one row. Phone: the picker and Menu, the transport and the clock,
  // then the open menu's rows (Speed; Share…). Phone in a very short window: the transport and Menu,
  // then the open menu's picker, Speed, the clock, Share… (Tab went from Menu to Share, the picker
  // drawn above Menu and Speed below it both before it in the page).
  const parts: ReactNode[] = !phone
    ? [picker, first, brk, transport, speed, time, last, gap]
    : short
      ? [brk, transport, first, last, gap, picker, speed, time]
      : [picker, first, brk, transport, time, last, gap, speed];
  return (
    <div className="toolbar" role="toolbar" aria-label="Simulation controls">
      {parts}
      <button
        type="button"
        className="share-button"
        onClick={() => void share(driver)}
        title="Copy a link that reproduces this run"
      >
        Share
      </button>
      {extra}
      <span className="icon-group">
        <button
          type="button"
          className="icon"
          aria-label="Dark theme"
          aria-pressed={theme === 'dark'}
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
          title="Dark theme (switch between light and dark)"
        >
          <span aria-hidden="true">◐</span>
        </button>
        <button
          type="button"
          className="icon"
          aria-label="Keyboard shortcuts"
          onClick={() => useUi.setState({ helpOpen: true })}
          title={`Keyboard shortcuts (${keyOf('help')})`}
        >
          ?
        </button>
      </span>
    </div>
  );
}
