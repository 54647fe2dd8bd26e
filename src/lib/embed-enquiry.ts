/**
 * What the embed's enquiry shell (/embed/enquiry?educator={slug}) needs about one educator: identity,
 * branding, enquiry types, courses and the success-screen listings. Written at build time
 * (src/pages/embed/[educator]/enquiry.json.ts) and by the publisher, from the same function.
 */
import type { EducatorModel } from '../../db/queries/pages.ts';
import { carouselCards } from '../domain/carousel.ts';
import { brandColour, onBrandColour, hoverColour } from '../domain/avatars.ts';
import { linkContext } from './config.ts';
import { LOGO_FALLBACK, COVER_FALLBACK } from './images.ts';
import type { EmbedEnquiryData } from '../islands/EmbedEnquiryApp.tsx';

export function embedEnquiryJson(model: EducatorModel): string {
  const e = model.educator;
  const whitelabelled = !!e.whitelabelling_enabled;
  const brand = brandColour({ color_brand: e.color_brand, whitelabellingEnabled: whitelabelled });
  const data: EmbedEnquiryData = {
    educator: {
      id: e.id, slug: e.slug, name: e.name, city: model.city,
      logoUrl: e.logo_url || LOGO_FALLBACK, coverUrl: e.cover_url || COVER_FALLBACK,
      canBeContacted: !!e.can_be_contacted,
      vouchersAppInstalled: model.vouchersAppInstalled,
      hasMembershipPlans: model.plans.length > 0,
      rating: model.aggregate && model.aggregate.count > 0 ? { rating: model.aggregate.rating, count: model.aggregate.count } : null,
    },
    brand: { colour: brand, hover: hoverColour(brand), onBrand: onBrandColour(whitelabelled ? e.on_color_brand : null), whitelabelled },
    enquiryTypes: (e.enquiry_types ?? []).map((t) => t.label).filter(Boolean),
    courses: model.courses.map((m) => ({ id: m.course.id, slug: m.course.slug, name: m.course.name })),
    listings: carouselCards(model.cards).map(({ collections: _c, ...card }) => card),
    links: linkContext('embed', e.slug),
  };
  return JSON.stringify(data);
}
