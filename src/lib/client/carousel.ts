/**
 * Carousel arrows and the course images counter ('n / total'), wired by delegation so pre-rendered
 * carousels need no island. Scrolling itself is CSS scroll-snap.
 */
import { CAROUSEL_VISIBILITY_THRESHOLD } from '../../domain/carousel.ts';

function track(button: Element): HTMLElement | null {
  return button.closest('[data-carousel]')?.querySelector<HTMLElement>('.carousel__track, [data-gallery-track]') ?? null;
}

let started = false;

/** Wires every carousel on the page (once; the layouts call it). */
export function initCarousels(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest('[data-carousel-prev], [data-carousel-next]');
    if (!button) return;
    const list = track(button);
    if (!list) return;
    const direction = button.hasAttribute('data-carousel-next') ? 1 : -1;
    const atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 4;
    const atStart = list.scrollLeft <= 4;
    if (direction > 0 && atEnd && list.hasAttribute('data-gallery-track')) list.scrollTo({ left: 0 });
    else if (direction < 0 && atStart && list.hasAttribute('data-gallery-track')) list.scrollTo({ left: list.scrollWidth });
    else list.scrollBy({ left: direction * list.clientWidth, behavior: 'smooth' });
  });

  // Image gallery counter: the slide most in view gives n.
  for (const gallery of document.querySelectorAll<HTMLElement>('[data-gallery]')) {
    const list = gallery.querySelector<HTMLElement>('[data-gallery-track]');
    const counter = gallery.querySelector<HTMLElement>('[data-gallery-index]');
    if (!list || !counter || !('IntersectionObserver' in window)) continue;
    const slides = Array.from(list.children) as HTMLElement[];
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting && entry.intersectionRatio >= CAROUSEL_VISIBILITY_THRESHOLD) counter.textContent = String(slides.indexOf(entry.target as HTMLElement) + 1);
        }
      },
      { root: list, threshold: [CAROUSEL_VISIBILITY_THRESHOLD] },
    );
    slides.forEach((slide) => observer.observe(slide));
  }
}
