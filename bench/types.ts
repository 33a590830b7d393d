/** A benchmark file `bench/<name>.bench.ts` default-exports a function returning figures. */
export interface Figure {
  /** Stable dotted name, e.g. `drr.pop_ns.c8` (issues fix some of them). */
  name: string;
  value: number;
  unit: string;
  /** Target as text, e.g. "≤ 1.5", shown beside the value. */
  target?: string;
  note?: string;
}

export type Bench = () => Promise<Figure[]>;
