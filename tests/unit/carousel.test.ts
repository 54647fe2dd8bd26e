import { describe, expect, it } from 'vitest';
import { COURSE_CAROUSEL_SIZE, CAROUSEL_VISIBILITY_THRESHOLD, carouselItemsVisible } from '../../src/domain/carousel.ts';

describe('carouselItemsVisible (spec 9)', () => {
  it.each([
    [0, 1],
    [559, 1],
    [560, 2],
    [889, 2],
    [890, 3],
    [1019, 3],
    [1020, 4],
    [1920, 4],
  ])('%i px → %i', (width, items) => {
    expect(carouselItemsVisible(width)).toBe(items);
  });
  it('success screens: 2 from 560 px', () => {
    expect(carouselItemsVisible(559, { successScreen: true })).toBe(1);
    expect(carouselItemsVisible(560, { successScreen: true })).toBe(2);
    expect(carouselItemsVisible(1400, { successScreen: true })).toBe(2);
  });
  it('constants', () => {
    expect(COURSE_CAROUSEL_SIZE).toBe(11);
    expect(CAROUSEL_VISIBILITY_THRESHOLD).toBe(0.6);
  });
});
