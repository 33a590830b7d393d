import { expect, it } from 'vitest';
import { slug } from '../../../src/ui/features/download';

// Tester finding (new user): a 60-character cut left "…-while-another-class-was-.svg".
it('a file name cut to 60 characters never ends on a separator', () => {
  const s = slug("Class service — Share of DRR's charge while another class was queued");
  expect(s.length).toBeLessThanOrEqual(60);
  expect(s).not.toMatch(/-$/);
  expect(s).toBe('class-service-share-of-drr-s-charge-while-another-class-was');
  expect(slug('—')).toBe('fairground');
});
