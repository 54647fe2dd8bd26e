/**
 * Analytics event names and social links (spec 1 "Analytics", 3 "Educator.links", 5).
 */

/** Spec 1: educator profile view (name not given in the spec; chosen). */
export const EDUCATOR_PROFILE_VIEW = 'Educator Profile View';
/** Spec 1: course page view, with educator id and course id (name not given; chosen). */
export const COURSE_PAGE_VIEW = 'Course Page View';
/** Spec 1: social link redirect. */
export const EXTERNAL_REDIRECT = 'External Redirect';
/** Spec 1: enquiry submitted, spelled exactly this way. */
export const ENQUIRY_SUBMITTED = 'Enquriy Sumbitted';
/** Spec 1: checkout events sent to the educator's own analytics and pixel ids. */
export const BEGIN_CHECKOUT = 'begin_checkout';
export const PURCHASE = 'purchase';

/** Spec 3: the social link types. */
export const SOCIAL_LINK_TYPES = ['facebook', 'instagram', 'linkedin', 'pinterest', 'twitter', 'web', 'youtube', 'tel'] as const;
export type SocialLinkType = (typeof SOCIAL_LINK_TYPES)[number];

export function isSocialLinkType(value: unknown): value is SocialLinkType {
  return typeof value === 'string' && (SOCIAL_LINK_TYPES as readonly string[]).includes(value);
}

/** Spec 2.8: the "Profiles" section lists these, in this order. */
export const PROFILE_SOCIAL_TYPES = ['facebook', 'instagram', 'twitter', 'pinterest', 'linkedin', 'youtube'] as const;
export type ProfileSocialType = (typeof PROFILE_SOCIAL_TYPES)[number];

/** Spec 5: a website URL without http(s):// gets https:// prepended; blank → ''. */
export function normaliseWebsiteUrl(url: string | null | undefined): string {
  const value = (url ?? '').trim();
  if (!value) return '';
  return /^https?:\/\//i.test(value) ? value : `https://${value}`;
}

/** Spec 2.8: the set profile links, in display order; an empty list hides the section. The website is not a profile. */
export function profileSocialLinks(links: Partial<Record<ProfileSocialType | 'web', string | null>> | null | undefined): { type: ProfileSocialType; href: string }[] {
  if (!links) return [];
  return PROFILE_SOCIAL_TYPES.filter((type) => !!links[type]?.trim()).map((type) => ({ type, href: normaliseWebsiteUrl(links[type]) }));
}

/** Spec 1: the enquiry-submitted event properties. */
export function enquiryEventProperties(educator: { _id: string; name: string }): { educator_ref: string; educator_name: string } {
  return { educator_ref: educator._id, educator_name: educator.name };
}
