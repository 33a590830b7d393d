/**
 * The DRR ring's segment labels (#13): every label the ring draws lies inside its own segment — a
 * level label's text boxes, or a name written along the arc — so none runs over a neighbour, the hub
 * or the visit arcs outside the ring. Checked by sampling points of each drawn label, independently
 * of the corner test the ring uses to choose.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arcLabelPath, ringSegments, segmentLabel } from '../../../src/ui/views/DrrRing';
import type { DrrClassModel } from '../../../src/ui/views/read';
import { labelFits, lineBox, textWidth } from '../../../src/ui/views/ring-labels';

const R_INNER = 60;
const R_OUTER = 100;
const SIZE = 15;

const cls = (name: string, quantum: number, queued: number): DrrClassModel => ({
  name,
  quantum,
  deficit: 0,
  queued,
  head_cost: queued > 0 ? 3 : null,
  blocked: false,
});

const angleOf = (x: number, y: number) => {
  const a = Math.atan2(x, -y);
  return a < 0 ? a + 2 * Math.PI : a;
};
const polar = (r: number, a: number): [number, number] => [r * Math.sin(a), -r * Math.cos(a)];

/** Points of the box [x0, x1] × [y0, y1], on a grid of ~2 units. */
function grid(x0: number, x1: number, y0: number, y1: number): [number, number][] {
  const out: [number, number][] = [];
  const nx = Math.max(2, Math.ceil((x1 - x0) / 2));
  const ny = Math.max(2, Math.ceil((y1 - y0) / 2));
  for (let i = 0; i <= nx; i++)
    for (let j = 0; j <= ny; j++) out.push([x0 + ((x1 - x0) * i) / nx, y0 + ((y1 - y0) * j) / ny]);
  return out;
}

function inside(p: [number, number], seg: { start: number; end: number }, inner: number, outer: number) {
  const r = Math.hypot(p[0], p[1]);
  const a = angleOf(p[0], p[1]);
  return r >= inner - 1e-6 && r <= outer + 1e-6 && a >= seg.start - 1e-6 && a <= seg.end + 1e-6;
}

/** The points a segment's label covers, as the ring draws it. */
function labelPoints(seg: ReturnType<typeof ringSegments>[number], countText: string | null) {
  const fit = segmentLabel(seg, seg.cls.name, countText);
  const nameW = textWidth(seg.cls.name, SIZE, 700);
  const countW = countText === null ? 0 : textWidth(countText, SIZE, 400);
  const [ax, ay] = polar((R_INNER + R_OUTER) / 2, seg.mid);
  const boxes: { w: number; top: number; bottom: number; x: number; y: number }[] = [];
  const pts: [number, number][] = [];
  if (fit.kind === 'two') {
    if (fit.count) {
      const n = lineBox(nameW, SIZE, -0.2 * SIZE);
      const c = lineBox(countW, SIZE, -0.2 * SIZE + 1.15 * SIZE);
      boxes.push({ w: n.width, top: n.top, bottom: n.bottom, x: ax, y: ay });
      boxes.push({ w: c.width, top: c.top, bottom: c.bottom, x: ax, y: ay });
    } else {
      const n = lineBox(nameW, SIZE, 0.35 * SIZE);
      boxes.push({ w: n.width, top: n.top, bottom: n.bottom, x: ax, y: ay });
    }
  } else if (fit.kind === 'count') {
    const c = lineBox(countW, SIZE, 0.35 * SIZE);
    boxes.push({ w: c.width, top: c.top, bottom: c.bottom, x: ax, y: ay });
  } else if (fit.kind === 'arc') {
    const arc = arcLabelPath(seg, nameW);
    expect(arc?.d).toBe(fit.arc);
    if (arc) {
      // the letters between the baseline and the cap height, over the arc's angles
      const top = Math.cos(seg.mid) >= 0;
      const r0 = top ? 82 + 0.24 * SIZE + 1 : R_OUTER - 0.24 * SIZE - 2;
      const radii = top ? [r0 - 0.24 * SIZE, r0 + 0.78 * SIZE] : [r0 + 0.24 * SIZE, r0 - 0.78 * SIZE];
      for (let k = 0; k <= 20; k++) {
        const a = arc.a0 + ((arc.a1 - arc.a0) * k) / 20;
        for (const r of radii) pts.push(polar(r, a));
      }
      // the arc is long enough for the name
      expect((arc.a1 - arc.a0) * r0).toBeGreaterThanOrEqual(nameW - 1e-6);
    }
    if (fit.count && fit.countArc !== undefined) {
      // the count along the arc of the inner band, under the name: its letters over its angles
      const band = { inner: R_INNER, outer: 78 };
      const under = arcLabelPath(seg, countW, band);
      expect(under?.d).toBe(fit.countArc);
      if (under) {
        const top = Math.cos(seg.mid) >= 0;
        const r0 = top ? band.inner + 0.24 * SIZE + 1 : band.outer - 0.24 * SIZE - 2;
        const radii = top ? [r0 - 0.24 * SIZE, r0 + 0.78 * SIZE] : [r0 + 0.24 * SIZE, r0 - 0.78 * SIZE];
        for (let k = 0; k <= 20; k++) {
          const a = under.a0 + ((under.a1 - under.a0) * k) / 20;
          for (const r of radii) pts.push(polar(r, a));
        }
        expect((under.a1 - under.a0) * r0).toBeGreaterThanOrEqual(countW - 1e-6);
        // clear of the name's band
        for (const r of radii) expect(r).toBeLessThanOrEqual(78 + 1e-6);
      }
    } else if (fit.count) {
      const c = lineBox(countW, SIZE, 0.35 * SIZE);
      boxes.push({ w: c.width, top: c.top, bottom: c.bottom, x: fit.countAt[0], y: fit.countAt[1] });
    }
  }
  for (const b of boxes) pts.push(...grid(b.x - b.w / 2, b.x + b.w / 2, b.y + b.top, b.y + b.bottom));
  return { fit, pts };
}

describe('DRR ring segment labels', () => {
  test('a box is inside a segment only when all of it is (ring edge, hub, neighbours)', () => {
    const seg = { inner: 60, outer: 100, start: 0, end: Math.PI / 2 };
    const [ax, ay] = polar(80, Math.PI / 4);
    expect(labelFits([lineBox(20, 15, 5)], ax, ay, seg)).toBe(true);
    // too wide: runs past the outer circle
    expect(labelFits([lineBox(90, 15, 5)], ax, ay, seg)).toBe(false);
    // across the 12 o'clock edge into the neighbour
    const [tx, ty] = polar(80, 0.05);
    expect(labelFits([lineBox(20, 15, 5)], tx, ty, seg)).toBe(false);
  });

  test("drr-sample-policy's 'cached' class: its name is written along the arc, not level over the edge", () => {
    const segs = ringSegments([
      cls('cached', 2048, 0),
      cls('uncached', 512, 2),
      cls('latency_cached', 4096, 0),
      cls('latency_uncached', 1024, 1),
      cls('custom_priority', 4096, 0),
    ]);
    const cached = segmentLabel(segs[0], 'cached', null);
    expect(cached.kind).toBe('arc');
    for (const s of segs) {
      const { pts } = labelPoints(s, s.cls.queued > 0 ? String(s.cls.queued) : null);
      for (const p of pts) expect(inside(p, s, R_INNER, R_OUTER), `${s.cls.name} at ${p}`).toBe(true);
    }
  });

  test('property: whatever the quanta, names and counts, every drawn label lies in its own segment', () => {
    const name = fc.stringMatching(/^[a-z][a-z_]{0,17}$/);
    fc.assert(
      fc.property(
        fc.array(fc.record({ name, quantum: fc.integer({ min: 1, max: 20000 }), queued: fc.nat(999) }), {
          minLength: 1,
          maxLength: 8,
        }),
        (rows) => {
          const classes = rows.map((r, i) => cls(`${r.name}${i}`, r.quantum, r.queued));
          let drawn = 0;
          for (const s of ringSegments(classes)) {
            const count = s.cls.queued > 0 ? String(s.cls.queued) : null;
            const { fit, pts } = labelPoints(s, count);
            if (fit.kind !== 'none') drawn++;
            for (const p of pts) if (!inside(p, s, R_INNER, R_OUTER)) return false;
          }
          // the choice is not vacuous: something is drawn on a ring with a wide segment
          return drawn > 0 || ringSegments(classes).every((s) => s.end - s.start < 0.6);
        },
      ),
      { numRuns: 300 },
    );
  });
});
