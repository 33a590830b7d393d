/**
 * A binary max-heap of the pending requests of one class, ordered by precomputed keys (order.ts):
 * strict priority tier, then due time (earliest first; none last), then policy score, then enqueue
 * sequence.
 *
 * The four keys live in parallel Float64Arrays beside the item array, so a sift compares
 * contiguous numbers instead of chasing object pointers. Push and pop allocate nothing except when
 * the arrays double.
 */
import { goesFirst, type OrderKey } from './order';

export class ClassHeap<E extends OrderKey> {
  private items: (E | undefined)[] = [];
  private tier = new Float64Array(16);
  private due = new Float64Array(16);
  private score = new Float64Array(16);
  private seq = new Float64Array(16);
  private n = 0;

  get size(): number {
    return this.n;
  }

  peek(): E | undefined {
    return this.n > 0 ? this.items[0] : undefined;
  }

  private grow(): void {
    const cap = this.tier.length * 2;
    const t = new Float64Array(cap);
    const d = new Float64Array(cap);
    const s = new Float64Array(cap);
    const q = new Float64Array(cap);
    t.set(this.tier);
    d.set(this.due);
    s.set(this.score);
    q.set(this.seq);
    this.tier = t;
    this.due = d;
    this.score = s;
    this.seq = q;
  }

  push(item: E): void {
    if (this.n === this.tier.length) this.grow();
    const { items, tier, due, score, seq } = this;
    const k = item.strictPriority;
    const d = item.due ?? Number.POSITIVE_INFINITY;
    const s = item.score;
    const q = item.seq;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = tier[p];
      const pd = due[p];
      const ps = score[p];
      const first = k !== pk ? k > pk : d !== pd ? d < pd : s !== ps ? s > ps : q < seq[p];
      if (!first) break;
      items[i] = items[p];
      tier[i] = pk;
      due[i] = pd;
      score[i] = ps;
      seq[i] = seq[p];
      i = p;
    }
    items[i] = item;
    tier[i] = k;
    due[i] = d;
    score[i] = s;
    seq[i] = q;
  }

  pop(): E | undefined {
    if (this.n === 0) return undefined;
    const { items, tier, due, score, seq } = this;
    const top = items[0];
    const m = --this.n;
    if (m > 0) {
      const last = items[m];
      const k = tier[m];
      const d = due[m];
      const s = score[m];
      const q = seq[m];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= m) break;
        const r = c + 1;
        if (r < m) {
          const rk = tier[r];
          const ck = tier[c];
          const rFirst =
            rk !== ck
              ? rk > ck
              : due[r] !== due[c]
                ? due[r] < due[c]
                : score[r] !== score[c]
                  ? score[r] > score[c]
                  : seq[r] < seq[c];
          if (rFirst) c = r;
        }
        const ck = tier[c];
        const cd = due[c];
        const cs = score[c];
        const childFirst = ck !== k ? ck > k : cd !== d ? cd < d : cs !== s ? cs > s : seq[c] < q;
        if (!childFirst) break;
        items[i] = items[c];
        tier[i] = ck;
        due[i] = cd;
        score[i] = cs;
        seq[i] = seq[c];
        i = c;
      }
      items[i] = last;
      tier[i] = k;
      due[i] = d;
      score[i] = s;
      seq[i] = q;
    }
    items[m] = undefined;
    return top;
  }

  /**
   * The items in the order they would leave (a sorted copy; for views, not the hot path). With
   * `limit`, only the first `limit` of them not `skip`ped, found by walking the heap best-first from
   * its root: O(k²) for k items looked at, whatever the heap's size.
   */
  ordered(limit = Number.POSITIVE_INFINITY, skip?: (e: E) => boolean): E[] {
    if (limit >= this.n) {
      const all = this.items.slice(0, this.n) as E[];
      const out = skip === undefined ? all : all.filter((e) => !skip(e));
      return out.sort((x, y) => (goesFirst(x, y) ? -1 : goesFirst(y, x) ? 1 : 0));
    }
    const items = this.items as E[];
    const out: E[] = [];
    const frontier = this.n > 0 ? [0] : [];
    while (out.length < limit && frontier.length > 0) {
      let b = 0;
      for (let j = 1; j < frontier.length; j++) if (goesFirst(items[frontier[j]], items[frontier[b]])) b = j;
      const i = frontier[b];
      frontier[b] = frontier[frontier.length - 1];
      frontier.pop();
      if (skip === undefined || !skip(items[i])) out.push(items[i]);
      if (2 * i + 1 < this.n) frontier.push(2 * i + 1);
      if (2 * i + 2 < this.n) frontier.push(2 * i + 2);
    }
    return out;
  }
}
