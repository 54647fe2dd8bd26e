/**
 * Course carousel (spec 2.12 / 9): up to 11 cards and an end card. Items visible per breakpoint
 * come from CSS (1 / 2 from 560px / 3 from 890px / 4 from 1020px; 'compact' = success screens: 2 from
 * 560px). Scroll-snap does the scrolling; the arrow buttons are wired by a tiny delegated script
 * (src/scripts/carousel.ts) so a pre-rendered carousel needs no island.
 */
import type { ReactNode } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import CourseCardView from './CourseCardView.tsx';

export interface CourseCarouselProps {
  title: string;
  cards: CourseCard[];
  links: LinkContext;
  /** The end card: text and link (e.g. 'View More ›', 'View all listings by {educator}'). */
  end: { text: string; href: string; newTab?: boolean };
  variant?: 'default' | 'compact' | 'aside';
  /** Per-card heart nodes keyed by course id (from Astro slots), if any. */
  saves?: Record<string, ReactNode>;
  id?: string;
}

export default function CourseCarousel({ title, cards, links, end, variant = 'default', saves, id }: CourseCarouselProps) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section className={`carousel section${variant !== 'default' ? ` carousel--${variant}` : ''}`} aria-labelledby={headingId} data-carousel>
      <div className="carousel__head">
        <h2 id={headingId}>{title}</h2>
        <div className="carousel__nav">
          <button type="button" data-carousel-prev aria-label={`Previous: ${title}`}>‹</button>
          <button type="button" data-carousel-next aria-label={`Next: ${title}`}>›</button>
        </div>
      </div>
      <ul className="carousel__track">
        {cards.map((card) => (
          <li key={card._id}>
            <CourseCardView card={card} links={links} save={saves?.[card._id]} />
          </li>
        ))}
        <li>
          <div className="course-card course-card--end">
            <a href={end.href} {...(end.newTab ? { target: '_blank', rel: 'noopener' } : {})}>{end.text}</a>
          </div>
        </li>
      </ul>
    </section>
  );
}
