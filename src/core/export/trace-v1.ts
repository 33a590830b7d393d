/**
 * A decision record as the CLI's `--trace` lines have always written it. The engine's records are
 * snake_case at every level now (#12); these lines keep the names users and outside tests read —
 * the class visits of a DRR pop, the class resolution of an enqueue, and the details of DLPM, VTC,
 * FCFS-MPQ, DoubleQ and Preble — mapped back here, one record kind at a time. Every other field was
 * already written as it is named.
 */
import type { AdmitDetail, DecisionRecord, DispatchDetail } from '../sim/decision';
import type { ClassResolution } from '../drr/classify';
import type { ClassVisit } from '../drr/types';
import { renamed } from './rename';

/** A DRR pop's class visit (the run export's version 1 writes these names too). */
export const visitV1 = (v: ClassVisit) =>
  renamed(v, {
    head_id: 'headId',
    head_cost: 'headCost',
    deficit_before: 'deficitBefore',
    deficit_after: 'deficitAfter',
  });

const resolutionV1 = (r: ClassResolution) =>
  renamed(
    { ...r, floors: r.floors.map((f) => renamed(f, { min_tokens: 'minTokens' })) },
    { profile_reason: 'profileReason', class_name: 'className' },
  );

function dispatchV1(d: DispatchDetail) {
  switch (d.algo) {
    case 'doubleq':
      return renamed(d, {
        matched_tokens: 'matchedTokens',
        g: 'G',
        g_avail: 'Gavail',
        worker_quantum: 'workerQuantum',
        charged_tokens: 'chargedTokens',
        queue_lens: 'queueLens',
      });
    case 'preble':
      return renamed(d, {
        matched_fraction: 'matchedFraction',
        matched_tokens: 'matchedTokens',
        prompt_len: 'promptTokens',
        load_kind: 'loadKind',
        prefill_loads: 'prefillLoads',
        decode_loads: 'decodeLoads',
        window_s: 'windowS',
      });
    default:
      return d;
  }
}

function admitV1(d: AdmitDetail) {
  switch (d.algo) {
    case 'dlpm':
      return { ...d, order: d.order.map((e) => renamed(e, { prefix_match: 'prefixMatch' })) };
    case 'vtc':
      return renamed(d, { chosen_client: 'chosenClient', head_fits: 'headFits', charge_mode: 'chargeMode' });
    case 'fcfs-mpq':
      return renamed(d, {
        group_sizes: 'groupSizes',
        skipped_empty: 'skippedEmpty',
        hit_ratio: 'hitRatio',
        admitted_before: 'admittedBefore',
        passed_over: 'passedOver',
      });
    default:
      return d;
  }
}

/** The record with the field names of the `--trace` lines (key order kept). */
export function traceRecordV1(d: DecisionRecord) {
  switch (d.kind) {
    case 'enqueue':
      return { ...d, detail: { ...d.detail, resolution: resolutionV1(d.detail.resolution) } };
    case 'drr-pop':
      return { ...d, detail: { ...d.detail, visits: d.detail.visits.map(visitV1) } };
    case 'dispatch':
      return { ...d, detail: dispatchV1(d.detail) };
    case 'admit':
      return { ...d, detail: admitV1(d.detail) };
    default:
      return d;
  }
}
