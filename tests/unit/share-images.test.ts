/**
 * Share images: pages point og:image at PNG or JPEG, never SVG, and the build renders our SVG
 * artwork to 1200×630 PNGs (src/lib/share-images.ts, src/integrations/share-images.ts).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DEFAULT_SHARE_IMAGE, shareImagePath } from '../../src/lib/share-images.ts';
import { renderShareImages } from '../../src/integrations/share-images.ts';

describe('shareImagePath', () => {
  it.each([
    ['/images/courses/pottery-1.svg', '/images/share/courses/pottery-1.png'],
    ['/images/brand/og.svg', '/images/share/brand/og.png'],
    ['https://cdn.example.com/course.JPG', 'https://cdn.example.com/course.JPG'],
    ['https://cdn.example.com/a.jpeg?w=1200', 'https://cdn.example.com/a.jpeg?w=1200'],
    ['/images/photo.png', '/images/photo.png'],
    ['https://cdn.example.com/logo.svg', DEFAULT_SHARE_IMAGE],
    ['https://cdn.example.com/photo.webp', DEFAULT_SHARE_IMAGE],
    [null, DEFAULT_SHARE_IMAGE],
    ['', DEFAULT_SHARE_IMAGE],
  ])('%s → %s', (src, expected) => {
    expect(shareImagePath(src)).toBe(expected);
  });
});

describe('renderShareImages', () => {
  it('renders wide and square SVGs to 1200×630 PNGs at the mirrored path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'share-'));
    try {
      mkdirSync(join(dir, 'images', 'courses'), { recursive: true });
      mkdirSync(join(dir, 'images', 'logos'), { recursive: true });
      writeFileSync(join(dir, 'images', 'courses', 'wide.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675"><rect width="1200" height="675" fill="#b45f3c"/></svg>');
      writeFileSync(join(dir, 'images', 'logos', 'square.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><circle cx="100" cy="100" r="90" fill="#2563eb"/></svg>');
      expect(await renderShareImages(join(dir, 'images'), join(dir, 'images', 'share'))).toBe(2);
      for (const file of ['courses/wide.png', 'logos/square.png']) {
        const png = readFileSync(join(dir, 'images', 'share', file));
        expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
        expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
      }
      // A second run does not render its own output again.
      expect(await renderShareImages(join(dir, 'images'), join(dir, 'images', 'share'))).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
