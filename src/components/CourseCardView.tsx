/**
 * Course card (spec 2.12): image and name, details, rating when the count is above 0, price unless
 * pricing is hidden, and the save (heart) position, not in the embed.
 *
 * Render-only React: pre-rendered by Astro pages (no hydration) and rendered by islands (search
 * results, success-screen carousel). The heart belongs to the accounts area; its mount point is the
 * `.course-card__save` element, marked `data-save-course="{courseId}"`, which also receives the
 * `save` slot from Astro (<CourseCardView …><SaveHeart slot="save" client:visible … /></CourseCardView>).
 */
import { showSaveButton } from '../domain/roles.ts';
import type { ReactNode } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { courseLink } from '../domain/links.ts';
import { levelLabel } from '../domain/text.ts';
import { deliveryBadges, deliveryLocationText } from '../domain/locations.ts';
import { showRatingSummary } from '../domain/ratings.ts';
import { pricingDisplay } from '../domain/listing.ts';
import { formatShortDay } from '../lib/format.ts';
import StarRating from './StarRating.tsx';

export interface CourseCardViewProps {
  card: CourseCard;
  links: LinkContext;
  /** Heading level of the card title inside its list. */
  headingLevel?: 3 | 4;
  /** Astro slot (or React node) placed at the heart position. */
  save?: ReactNode;
  /** Image loading (the first cards of a page may be eager). */
  loading?: 'lazy' | 'eager';
}

export function cardHref(card: CourseCard, links: LinkContext) {
  return courseLink(links.context, {
    educatorSlug: card.educator_slug || card.educator.slug,
    currentEducatorSlug: links.currentEducatorSlug,
    host: links.host,
    protocol: links.protocol,
    courseSlug: card.slug,
  });
}

export default function CourseCardView({ card, links, headingLevel = 3, save, loading = 'lazy' }: CourseCardViewProps) {
  const link = cardHref(card, links);
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const level = levelLabel(card.level);
  // Spec 5: the first place, or '{first} & {n} more' when the course takes place in several.
  const places = card.locations?.length ? card.locations : card.location ? [card.location] : [];
  const badges = deliveryBadges(card, deliveryLocationText(places));
  const price = card.hide_pricing ? null : pricingDisplay(card.pricing_option, card.currency || 'GBP');
  return (
    <article className="course-card" data-course-id={card._id} data-collections={(card.collections ?? []).join(' ') || undefined}>
      <div className="course-card__media">
        {card.img_url
          ? <img src={card.img_url} alt="" width={400} height={250} loading={loading} decoding="async" />
          : null}
        {showSaveButton(links.context) && (
          save !== undefined
            ? <div className="course-card__save" data-save-course={card._id} data-course-name={card.name}>{save}</div>
            // Empty and left to the accounts island: React neither hydrates nor resets its children (portals live there).
            : <div className="course-card__save" data-save-course={card._id} data-course-name={card.name} dangerouslySetInnerHTML={{ __html: '' }} />
        )}
      </div>
      <div className="course-card__body">
        <Heading className="course-card__title">
          <a href={link.href} {...(link.newTab ? { target: '_blank', rel: 'noopener' } : {})}>{card.name}</a>
        </Heading>
        <p className="course-card__educator">{card.educator.name}</p>
        {(level || badges.length > 0) && (
          <ul className="course-card__details">
            {badges.map((badge) => <li key={badge} className="badge">{badge}</li>)}
            {level && <li className="badge">{level}</li>}
          </ul>
        )}
        {card.next_occurrence && <p className="course-card__next">Next date: {formatShortDay(card.next_occurrence)}</p>}
        {showRatingSummary(card.reviews.count) && <StarRating rating={card.reviews.rating} count={card.reviews.count} showValue />}
        {price && <p className="course-card__price">{price}</p>}
      </div>
    </article>
  );
}
