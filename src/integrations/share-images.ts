/**
 * Build step: renders every SVG under public/images to a 1200×630 PNG share image in the built site
 * (dist/client/images/share/…, see src/lib/share-images.ts). Wide artwork (course images, covers, the
 * product's card) fills the frame; square artwork (logos) sits centred on white.
 *
 * sharp renders SVG with librsvg, offline, from the prebuilt binary its npm package ships (it is
 * already installed as Astro's image library); rendering ~120 small SVGs adds a few seconds to a build.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import sharp from 'sharp';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH } from '../lib/share-images.ts';

async function svgFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map(async (entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return svgFiles(path);
    return entry.name.toLowerCase().endsWith('.svg') ? [path] : [];
  }));
  return nested.flat();
}

/** Renders `imagesDir`'s SVGs into `outDir` (same relative paths, .png). Returns how many were written. */
export async function renderShareImages(imagesDir: string, outDir: string): Promise<number> {
  const files = (await svgFiles(imagesDir)).filter((file) => !relative(imagesDir, file).startsWith('share'));
  const renderOne = async (file: string) => {
    const target = join(outDir, relative(imagesDir, file)).replace(/\.svg$/i, '.png');
    await mkdir(dirname(target), { recursive: true });
    // Rasterise at the density that makes the artwork just big enough for the frame (no 2× waste).
    const { width = 1, height = 1 } = await sharp(file).metadata();
    const wide = width / height >= 1.3;
    const scale = wide ? Math.max(SHARE_IMAGE_WIDTH / width, SHARE_IMAGE_HEIGHT / height) : Math.min(SHARE_IMAGE_WIDTH / width, SHARE_IMAGE_HEIGHT / height);
    await sharp(file, { density: Math.min(600, Math.max(1, Math.ceil(72 * scale))) })
      .resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, wide ? { fit: 'cover' } : { fit: 'contain', background: '#ffffff' })
      .flatten({ background: '#ffffff' })
      .png({ compressionLevel: 6 })
      .toFile(target);
  };
  // A few at a time: librsvg is single-threaded per image.
  const queue = files.slice();
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) await renderOne(file);
  }));
  return files.length;
}

export default function shareImages(): AstroIntegration {
  return {
    name: 'share-images',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        const started = performance.now();
        const count = await renderShareImages(join(client, 'images'), join(client, 'images', 'share'));
        logger.info(`${count} share images rendered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      },
    },
  };
}
