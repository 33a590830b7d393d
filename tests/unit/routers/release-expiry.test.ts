/**
 * Up to v1.5 the router's record of a worker's load forgets bookings by age (see
 * `BOOKING_EXPIRY_S` in src/core/drr/release.ts and `Router.expireBookings`).
 *
 * What was read (mainline of the public repository, March – August 2026; the release tags could not
 * be read): each worker's sequence tracker (`ActiveSequences` in `lib/kv-router/src/sequences/
 * single.rs`) stamps a request when it is registered with the worker and, in `force_expiry`, frees
 * every request registered more than 300 s before (a strict comparison), whatever it is doing. A
 * worker's check runs at most once per 30 s, before every new registration on that worker and at a
 * sweep over every worker every 60 s (`force_expire_requests_across_all_workers`, on a periodic task
 * started with every router's tracker). The freed booking takes its prefill tokens out of the record
 * the queue's busy rules read; no queue update follows, so the next drain (a worker update or the
 * scheduler's periodic update, also every 60 s from router start) reads the lower record. From PR
 * #13718 (v1.6 here) the embedded router replaced this with a lease scan whose code was not read:
 * under v1.6 nothing expires.
 *
 * Can it matter here? Only when a request waits more than 300 s between the router sending it and
 * its first token (the record drops a request's tokens at its first token). No shipped scenario comes
 * close (the longest booking is under 10 s, last test), but an overloaded worker does:
 *
 * Worked example (one worker running one request at a time; class A busy while the record holds more
 * than 4,096 booked tokens, bg never busy):
 *   t=0.000…0.015  b1…b16 (bg, 2,048-token prompts, 3,000 output tokens) go straight to the worker and
 *                  are booked: 32,768 tokens. Each runs about 35 s, so b_k's first token comes at about
 *                  35·(k−1) s; b10's at 314 s, b11's at 349 s.
 *   t=1            q (A) is stored: the record holds far more than 4,096 tokens.
 *   t=360          the sweep (cutoff 60 s) frees b12…b16, booked at about 0 s, still waiting: the record
 *                  drops to 0. The scheduler's periodic update at 360 s pops q, sent at 360.000.
 * Without the expiry q waits until only two bookings are left, at b14's first token (about 454 s), as
 * under v1.6.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOOKING_CHECK_GATE_S,
  BOOKING_EXPIRY_S,
  BOOKING_SWEEP_S,
  bookingExpiryFaults,
} from '../../../src/core/drr';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
import { releaseScenarioText } from './helpers';

/** 16 bg requests from `flood` s (`gap` s apart), q (class A) one second later, then `extra` lines. */
function scenarioText(release: string, flood: number, extra = '', gap = 0.001): string {
  const bg = Array.from(
    { length: 16 },
    (_, i) =>
      `  - { t: ${(flood + i * gap).toFixed(3)}, client: c, id: b${i + 1}, prompt_tokens: 2048, output_tokens: 3000, policy_class: bg }`,
  ).join('\n');
  return releaseScenarioText({
    name: 'booking expiry',
    release,
    workers: 1,
    duration: 900,
    requests: `${bg}
  - { t: ${flood + 1}, client: c, id: q, prompt_tokens: 64, output_tokens: 2, policy_class: A }
${extra}`,
    classes: `      - {name: x, policy_family: std, cache_bucket: any, quantum: 1000}
      - {name: bg, quantum: 1000}
      - {name: A, quantum: 1000, prefill_busy_threshold: 4096}`,
  }).replace('max_running: 16', 'max_running: 1');
}

function run(text: string) {
  const p = parseScenarioText(text);
  if (!p.ok) throw new Error(p.problems.map((x) => `${x.line}:${x.col} ${x.message}`).join('\n'));
  const sim = new Simulation(p.value, { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  const firstToken = new Map<string, number>();
  sim.onRequestDone = (r) => firstToken.set(r.id, r.firstTokenT);
  sim.runToEnd();
  expect(sim.checkInvariants()).toEqual([]);
  const sent = (id: string) => decisions.find((d) => d.kind === 'dispatch' && d.request === id)?.t;
  return { sim, sent, firstToken, log: JSON.stringify(decisions) };
}

afterEach(() => {
  bookingExpiryFaults.never = false;
  bookingExpiryFaults.inclusive = false;
  bookingExpiryFaults.noGate = false;
});

/** The worked example's claim for `release`: q leaves at the 360 s sweep and periodic update. */
function workedExample(release: string) {
  const r = run(scenarioText(release, 0));
  expect(r.firstToken.get('b11')).toBeLessThan(360);
  expect(r.firstToken.get('b12')).toBeGreaterThan(360);
  expect(r.sent('q')).toBe(360);
  expect(r.sim.router.expiredBookings).toBe(5);
  return r;
}

describe('up to v1.5 the router forgets bookings older than 300 s', () => {
  it('the constants read: 300 s of age, 30 s between two checks of a worker, a sweep every 60 s', () => {
    expect([BOOKING_EXPIRY_S, BOOKING_CHECK_GATE_S, BOOKING_SWEEP_S]).toEqual([300, 30, 60]);
  });

  for (const release of ['v1.3', 'v1.4', 'v1.5'])
    it(`${release} worked example: the 360 s sweep frees b12…b16 and q leaves at 360 s`, () => {
      workedExample(release);
    });

  it('v1.6 (lease scan, not modelled): nothing expires and q waits for b14’s first token', () => {
    const r = run(scenarioText('v1.6', 0));
    expect(r.sim.router.expiredBookings).toBe(0);
    expect(r.sent('q')).toBe(r.firstToken.get('b14'));
    expect(r.sent('q')).toBeGreaterThan(440);
  });

  it('fails without the expiry: q then leaves at b14’s first token, as under v1.6', () => {
    bookingExpiryFaults.never = true;
    expect(() => workedExample('v1.5')).toThrow();
    const r = run(scenarioText('v1.5', 0));
    expect(r.sim.router.expiredBookings).toBe(0);
    expect(r.sent('q')).toBe(r.firstToken.get('b14'));
  });

  it('an age of exactly 300 s is not too old: bookings made at 60 s expire at the 420 s sweep', () => {
    const r = run(scenarioText('v1.5', 60, '', 0));
    expect(r.firstToken.get('b12')).toBeGreaterThan(420);
    expect(r.sent('q')).toBe(420);
    bookingExpiryFaults.inclusive = true;
    expect(run(scenarioText('v1.5', 60, '', 0)).sent('q')).toBe(360);
  });

  it('a check runs at most once per 30 s: a booking at 375 s, 15 s after the sweep, checks nothing', () => {
    // the flood at 70 s is 305 s old at 375 s, but the worker's last check was the 360 s sweep
    const extra =
      '  - { t: 375.0, client: c, id: late, prompt_tokens: 64, output_tokens: 2, policy_class: bg }\n';
    const r = run(scenarioText('v1.5', 70, extra));
    expect(r.sent('late')).toBe(375);
    expect(r.sent('q')).toBe(420);
    // ungated, the check before late's booking frees them; q leaves at the next worker update
    bookingExpiryFaults.noGate = true;
    const u = run(scenarioText('v1.5', 70, extra));
    expect(u.sent('q')).toBeGreaterThan(375);
    expect(u.sent('q')).toBeLessThan(420);
  });

  it('the shipped cluster scenarios never keep a booking near 300 s: nothing expires, v1.5 as before', () => {
    for (const file of ['default.yaml', 'cluster-dynamo-kv-aware.yaml']) {
      const text = readFileSync(`scenarios/${file}`, 'utf8').replace(
        /^router:\n/m,
        'router:\n  dynamo_release: v1.5\n',
      );
      const on = run(text);
      expect(on.sim.router.expiredBookings).toBe(0);
      bookingExpiryFaults.never = true;
      const off = run(text);
      bookingExpiryFaults.never = false;
      expect(on.log).toEqual(off.log);
    }
  });
});
