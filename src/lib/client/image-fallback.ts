/**
 * An educator's logo or cover that fails to load is replaced by the default image named in its
 * `data-fallback-src`. This was an inline `onerror` attribute; the pages' Content-Security-Policy allows no
 * inline handlers, so the swap is made here. An image that failed before this ran (the module loads after
 * parsing) is found by its state; later failures by a capturing listener (error events do not bubble).
 */
let started = false;

function swapToFallback(img: HTMLImageElement): void {
  const fallback = img.dataset.fallbackSrc;
  if (!fallback || img.dataset.fallbackUsed) return;
  img.dataset.fallbackUsed = '1';
  img.src = fallback;
}

export function initImageFallbacks(): void {
  if (started) return;
  started = true;
  document.addEventListener('error', (event) => {
    if (event.target instanceof HTMLImageElement) swapToFallback(event.target);
  }, true);
  for (const img of document.querySelectorAll<HTMLImageElement>('img[data-fallback-src]')) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) swapToFallback(img);
  }
}
