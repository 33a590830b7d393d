/**
 * Moves the playground to a tour step's moment with the driver's load / step / runUntil (the same
 * calls `window.fairground` makes): loads the step's scenario when it is not the one running, then
 * seeks to the step's decision (from the nearest restore point when it is behind) or runs until its
 * time.
 */
import { applyOverrides } from '../../scenario';
import { extractPolicy, useEdits } from '../../state/edits';
import { useUi } from '../../state/store';
import type { Driver } from '../driver';
import { SCENARIOS, scenarioText } from '../scenarios';
import { openInPlayground } from './playground';
import type { TourMoment } from './tours';

/** The scenario text of a moment (overrides applied), or null when the scenario is not shipped. */
export function momentText(at: TourMoment): string | null {
  if (!SCENARIOS.some((s) => s.id === at.scenario)) return null;
  const text = scenarioText(at.scenario);
  if (!at.sets || at.sets.length === 0) return text;
  const res = applyOverrides(text, at.sets);
  return res.ok ? res.value : null;
}

export async function goToMoment(driver: Driver, at: TourMoment): Promise<string | null> {
  const text = momentText(at);
  if (text === null) return `The scenario ${at.scenario} is not shipped with this build.`;
  const running = useEdits.getState().texts.scenario === text && useUi.getState().kind !== null;
  if (!running) {
    const failed = await openInPlayground(driver, text, undefined, {
      id: at.scenario,
      // the shipped text is the original: Revert stays off until the viewer edits something
      original: { scenario: scenarioText(at.scenario), policy: extractPolicy(scenarioText(at.scenario)) },
    });
    if (failed) return failed;
  }
  if (at.decisions !== undefined) {
    // forward by stepping on, back from the nearest restore point
    if (at.decisions !== useUi.getState().decisionCount) await driver.seek({ decision: at.decisions });
  } else if (at.time !== undefined) {
    await driver.runUntil(at.time);
  }
  return null;
}
