/**
 * Share images (Open Graph / Twitter card). The big social networks show PNG and JPEG but not SVG,
 * and our artwork (course images, covers, logos, the product's card) is SVG. So every SVG under
 * public/images is rendered to a 1200×630 PNG at build time (src/integrations/share-images.ts), at
 * /images/share/{same path}.png, and pages point og:image there. Pure: the mapping only.
 */

/** Where the rendered PNGs live, mirroring public/images. */
export const SHARE_IMAGE_DIR = '/images/share';
/** The recommended Open Graph size (1.91:1). */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
/** The product's own card, for pages without an image of their own or whose image cannot be shown. */
export const DEFAULT_SHARE_IMAGE = `${SHARE_IMAGE_DIR}/brand/og.png`;

/**
 * The share image for a page image: our own SVG → its rendered PNG; a PNG or JPEG (ours or an
 * educator's, by its path's extension) → itself; anything else (SVG elsewhere, WebP, no image) →
 * the product's card.
 */
export function shareImagePath(src: string | null | undefined): string {
  if (!src) return DEFAULT_SHARE_IMAGE;
  let pathname: string;
  try {
    pathname = new URL(src, 'http://local.invalid').pathname;
  } catch {
    return DEFAULT_SHARE_IMAGE;
  }
  const local = src.startsWith('/') && !src.startsWith('//');
  if (local && pathname.startsWith('/images/') && pathname.toLowerCase().endsWith('.svg')) {
    return `${SHARE_IMAGE_DIR}/${pathname.slice('/images/'.length, -'.svg'.length)}.png`;
  }
  if (/\.(png|jpe?g)$/i.test(pathname)) return src;
  return DEFAULT_SHARE_IMAGE;
}

/** Our rendered share images have a known size (og:image:width / height); others do not. */
export function isRenderedShareImage(src: string): boolean {
  return src.startsWith(`${SHARE_IMAGE_DIR}/`);
}
