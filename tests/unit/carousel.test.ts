import { describe, expect, it } from 'vitest';
import { COURSE_CAROUSEL_SIZE, CAROUSEL_VISIBILITY_THRESHOLD } from '../../src/domain/carousel.ts';

describe('carousel constants (spec 9)', () => {
  it('constants', () => {
    expect(COURSE_CAROUSEL_SIZE).toBe(11);
    expect(CAROUSEL_VISIBILITY_THRESHOLD).toBe(0.6);
  });
});
