/** What a VTC admission records (the explainer in ./explain.ts reads it). */

/** VTC (OSDI'24) picking the next client to admit from on one worker. */
export interface VtcAdmitDetail {
  algo: 'vtc';
  worker?: number;
  /** Virtual token counter of every client with waiting requests (after any lift). */
  counters: Record<string, number>;
  /** The client with the smallest counter (ties: first seen), or null when nobody waits. */
  chosen_client: string | null;
  /** The chosen client's head request. */
  head?: string;
  /** Whether that head fits in this step; when it does not, admission stops (head-of-line). */
  head_fits: boolean;
  /** Counters lifted because a client's queue went from empty to non-empty. */
  lifts?: { client: string; from: number; to: number }[];
  /** Counter increase charged at admission (w_e · input tokens ÷ the client's weight), when admitted. */
  charge?: number;
  /** The chosen client's fair weight (`scheduler.client_weights`), when it is not 1. */
  weight?: number;
  /** What `charge` counts: every prompt token ('input') or the uncached ones ('extend'). */
  charge_mode?: 'input' | 'extend';
}
