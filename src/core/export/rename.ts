/**
 * Typed key renaming for the outputs that keep older field names than the engine's (the run export's
 * version 1, the CLI's `--trace` lines). A map from some of an object's keys to their written names
 * gives the result's type; every other key is kept, and a renamed key stays where it was, so the
 * result serialises byte for byte like an object written with the old names.
 */

/** New name -> written name, for some keys of `T`. */
export type Names<T> = { readonly [K in keyof T]?: string };

/** `T` with the keys `M` names written under their new names. */
export type Renamed<T, M> = {
  [K in keyof T as K extends keyof M ? (M[K] extends string ? M[K] : K) : K]: T[K];
};

/** Keys of `M` that `T` does not have: none allowed (a misspelt key in a map is a compile error). */
type Unknown<T, M> = { readonly [K in Exclude<keyof M, keyof T>]: never };

/** `value` with its keys renamed by `names`, in their original order. */
export function renamed<T extends object, const M extends Names<T> & { readonly [key: string]: string }>(
  value: T,
  names: M & Unknown<T, M>,
): Renamed<T, M> {
  const out: { [key: string]: unknown } = {};
  for (const [key, v] of Object.entries(value)) out[Object.hasOwn(names, key) ? names[key] : key] = v;
  // the one assertion: the loop above builds exactly `Renamed<T, M>` (rename.test.ts checks the keys)
  return out as Renamed<T, M>;
}
