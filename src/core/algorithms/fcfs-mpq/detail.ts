/** What an admission under Preble's fcfs-mpq records (the explainer in ./explain.ts reads it). */

/** One admission attempt of Preble's multi-priority-queue scheduler on one worker. */
export interface FcfsMpqDetail {
  algo: 'fcfs-mpq';
  worker?: number;
  /** The priority group this step serves (0 = lowest cache hit ratio, 9 = highest). */
  group: number;
  /** Waiting requests per group when this step picked its group (index = group). */
  group_sizes: number[];
  /** Groups passed over because they were empty, in the order the round robin looked at them. */
  skipped_empty: number[];
  /** The most requests this group may admit in one step: (group + 1) × k. */
  limit: number;
  /** The request's cache hit ratio when it was put in its group. */
  hit_ratio: number;
  /** Prompt tokens cached on this worker now. */
  cached: number;
  /** Position in the group's arrival order (0 = oldest). */
  rank: number;
  /** Requests of this group already admitted in this step before this one. */
  admitted_before: number;
  /**
   * Requests of this group passed over in this step because they did not fit in KV memory, or
   * because their uncached prompt would take the step's new prefill tokens to Preble's cap.
   */
  passed_over: number;
}
