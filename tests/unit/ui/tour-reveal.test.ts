import { describe, expect, it } from 'vitest';
import { firstNamed } from '../../../src/ui/features/tour-reveal';
import { TOURS } from '../../../src/ui/features/tours';

const VIEWS = ['DRR ring', 'Class queues', 'Client service', 'Class service', 'Workers', 'Figures'];

describe('firstNamed: the view a tour step talks about', () => {
  it('finds the view named first in the text', () => {
    expect(firstNamed('The DRR ring shows the cursor on A', VIEWS)).toBe(0);
    expect(firstNamed('Look at Client service, then the DRR ring', VIEWS)).toBe(2);
    expect(firstNamed('Look at **Class service**.', VIEWS)).toBe(3);
  });
  it('matches case and whole words only', () => {
    expect(firstNamed('the workers are busy', VIEWS)).toBe(-1);
    expect(firstNamed('DRR rings in general', VIEWS)).toBe(-1);
    expect(firstNamed('Nothing named here', VIEWS)).toBe(-1);
  });
  it("names the ring in the DRR tour's first step (the one a phone reader saw scrolled away)", () => {
    const drr = TOURS.find((t) => t.id === 'drr');
    expect(drr && firstNamed(drr.steps[0].text, VIEWS)).toBe(0);
  });
});
