/**
 * The profile form's draft (ProfileForm.tsx): the educator's profile as the API sends it, the draft the form edits
 * (text fields as typed), the draft back as the API takes it with what the browser can already tell is wrong, and
 * what a save sends (only the fields that changed). No React here: plain rules.
 */
import { WEEKDAYS, formatTimeOfDay, type Weekday } from '../../../domain/workingHours.ts';
import {
  GA4_ID_MESSAGE, GA4_ID_PATTERN, HEX_COLOUR_MESSAGE, PIXEL_ID_MESSAGE, PIXEL_ID_PATTERN, educatorSlugProblem, normaliseHexColour, parseTimeOfDay,
} from '../../../domain/admin/educator-profile.ts';
import { brandContrastProblem } from '../../../lib/admin-branding.ts';
import type { HoursDraft } from './OpeningHours.tsx';

export const LINK_KEYS = ['web', 'facebook', 'instagram', 'twitter', 'pinterest', 'linkedin', 'youtube'] as const;
export type LinkKey = (typeof LINK_KEYS)[number];
export const LINK_LABELS: Record<LinkKey, string> = {
  web: 'Website', facebook: 'Facebook', instagram: 'Instagram', twitter: 'Twitter', pinterest: 'Pinterest', linkedin: 'LinkedIn', youtube: 'YouTube',
};
export const ADDRESS_KEYS = ['line1', 'line2', 'city', 'postcode'] as const;
export type AddressKey = (typeof ADDRESS_KEYS)[number];
export const ADDRESS_LABELS: Record<AddressKey, string> = { line1: 'Address line 1', line2: 'Address line 2', city: 'Town or city', postcode: 'Postcode' };
export const FLAGS = [
  ['hide_marketing_consent', 'Hide the marketing consent checkbox', 'Learners are not asked in your checkout whether you may e-mail them.'],
  ['hide_terms', 'Hide the terms checkbox', 'Your checkout does not ask learners to accept your terms.'],
  ['hide_pricing', 'Hide prices', 'Prices and cost lines are hidden on your site and embed (the marketplace still shows them).'],
  ['hide_social_prompts', 'Hide "Share with your network"', 'No share prompts after a booking or on your pages.'],
] as const;
export type FlagKey = (typeof FLAGS)[number][0];

export interface Profile {
  id: string;
  revision: number;
  claimed: boolean;
  oldSlugs: string[];
  name: string;
  slug: string;
  bio: string;
  logo_url: string | null;
  cover_url: string | null;
  email: string | null;
  phone_number: string | null;
  address: Partial<Record<AddressKey, string>> | null;
  links: Partial<Record<LinkKey, string | null>>;
  enquiry_types: { label: string }[];
  can_be_contacted: boolean;
  working_hours: Partial<Record<Weekday, { from: number; until: number }[] | null>>;
  feature_flags: Record<FlagKey, boolean>;
  whitelabelling_enabled: boolean;
  color_brand: string | null;
  on_color_brand: string | null;
  third_party_codes: { ga4_id?: string | null; facebook_pixel_id?: string | null };
  vat_settings: { enabled: boolean; is_vat_absorbed: boolean; tax_label?: string | null; rate_bp?: number };
  tos: string | null;
  cancellation_allowed: number | null;
}

export interface Draft {
  name: string;
  slug: string;
  bio: string;
  logo_url: string | null;
  cover_url: string | null;
  email: string;
  phone_number: string;
  address: Record<AddressKey, string>;
  links: Record<LinkKey, string>;
  enquiry_types: string[];
  can_be_contacted: boolean;
  hours: HoursDraft;
  feature_flags: Record<FlagKey, boolean>;
  whitelabelling_enabled: boolean;
  color_brand: string;
  on_color_brand: string;
  ga4_id: string;
  pixel_id: string;
  vat_enabled: boolean;
  vat_absorbed: boolean;
  tax_label: string;
  vat_rate: string;
  tos: string;
  cancellation_on: boolean;
  cancellation_days: string;
}

export function draftOf(p: Profile): Draft {
  const hours = Object.fromEntries(WEEKDAYS.map((day) => {
    const ranges = p.working_hours[day];
    if (ranges == null) return [day, { mode: 'closed', ranges: [] }];
    if (ranges.length === 0) return [day, { mode: '24h', ranges: [] }];
    return [day, { mode: 'hours', ranges: ranges.map((r) => ({ from: formatTimeOfDay(r.from), until: r.until === 86_400 ? '00:00' : formatTimeOfDay(r.until) })) }];
  })) as HoursDraft;
  return {
    name: p.name,
    slug: p.slug,
    bio: p.bio ?? '',
    logo_url: p.logo_url,
    cover_url: p.cover_url,
    email: p.email ?? '',
    phone_number: p.phone_number ?? '',
    address: Object.fromEntries(ADDRESS_KEYS.map((k) => [k, p.address?.[k] ?? ''])) as Record<AddressKey, string>,
    links: Object.fromEntries(LINK_KEYS.map((k) => [k, p.links?.[k] ?? ''])) as Record<LinkKey, string>,
    enquiry_types: p.enquiry_types.map((t) => t.label),
    can_be_contacted: p.can_be_contacted,
    hours,
    feature_flags: { ...p.feature_flags },
    whitelabelling_enabled: p.whitelabelling_enabled,
    color_brand: p.color_brand ?? '',
    on_color_brand: p.on_color_brand ?? '',
    ga4_id: p.third_party_codes?.ga4_id ?? '',
    pixel_id: p.third_party_codes?.facebook_pixel_id ?? '',
    vat_enabled: !!p.vat_settings?.enabled,
    vat_absorbed: !!p.vat_settings?.is_vat_absorbed,
    tax_label: p.vat_settings?.tax_label ?? '',
    vat_rate: typeof p.vat_settings?.rate_bp === 'number' ? String(p.vat_settings.rate_bp / 100) : '',
    tos: p.tos ?? '',
    cancellation_on: p.cancellation_allowed !== null,
    cancellation_days: p.cancellation_allowed !== null ? String(p.cancellation_allowed) : '',
  };
}

/** The opening hours as the API takes them (seconds of the day; null: closed, []: open 24 hours), noting into
 * `problems` the times that are missing or end before they start. */
function workingHoursOf(draft: HoursDraft, problems: Record<string, string>): Record<string, { from: number; until: number }[] | null> {
  const hours: Record<string, { from: number; until: number }[] | null> = {};
  for (const day of WEEKDAYS) {
    const x = draft[day];
    if (x.mode === 'closed') hours[day] = null;
    else if (x.mode === '24h') hours[day] = [];
    else {
      hours[day] = x.ranges.map((r, i) => {
        const from = parseTimeOfDay(r.from);
        let until = parseTimeOfDay(r.until);
        if (until === 0) until = 86_400;
        if (from === null) problems[`working_hours.${day}.${i}.from`] = 'is required';
        if (until === null) problems[`working_hours.${day}.${i}.until`] = 'is required';
        else if (from !== null && until <= from) problems[`working_hours.${day}.${i}.until`] = 'must be after the opening time';
        return { from: from ?? 0, until: until ?? 0 };
      });
    }
  }
  return hours;
}

/** The draft as the API takes it, and what the browser can already tell is wrong (keys as the server's). */
export function valuesOf(d: Draft): { values: Record<string, unknown>; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const hours = workingHoursOf(d.hours, problems);
  const slugProblem = educatorSlugProblem(d.slug.trim());
  if (slugProblem) problems.slug = slugProblem;
  if (!d.name.trim()) problems.name = 'is required';
  if (!d.email.trim()) problems.email = 'is required';
  const brand = d.color_brand.trim() ? normaliseHexColour(d.color_brand) : null;
  const onBrand = d.on_color_brand.trim() ? normaliseHexColour(d.on_color_brand) : null;
  if (d.color_brand.trim() && !brand) problems.color_brand = HEX_COLOUR_MESSAGE;
  if (d.on_color_brand.trim() && !onBrand) problems.on_color_brand = HEX_COLOUR_MESSAGE;
  else if (brand) {
    const contrast = brandContrastProblem(brand, onBrand);
    if (contrast) problems.on_color_brand = contrast;
  }
  const ga4 = d.ga4_id.trim().toUpperCase();
  const pixel = d.pixel_id.replace(/\s+/g, '');
  if (ga4 && !GA4_ID_PATTERN.test(ga4)) problems['third_party_codes.ga4_id'] = GA4_ID_MESSAGE;
  if (pixel && !PIXEL_ID_PATTERN.test(pixel)) problems['third_party_codes.facebook_pixel_id'] = PIXEL_ID_MESSAGE;
  const rate = d.vat_rate.trim();
  const rateBp = rate === '' ? undefined : Math.round(Number(rate) * 100);
  if (rate !== '' && (!Number.isFinite(Number(rate)) || Number(rate) < 0 || Number(rate) > 100)) problems['vat_settings.rate_bp'] = 'must be a percentage from 0 to 100';
  const days = d.cancellation_days.trim();
  if (d.cancellation_on && !/^\d{1,3}$/.test(days)) problems.cancellation_allowed = 'must be a whole number of days';
  const address = Object.fromEntries(ADDRESS_KEYS.flatMap((k) => (d.address[k].trim() ? [[k, d.address[k].trim()]] : [])));
  return {
    problems,
    values: {
      name: d.name.trim(),
      slug: d.slug.trim(),
      bio: d.bio,
      logo_url: d.logo_url,
      cover_url: d.cover_url,
      email: d.email.trim() || null,
      phone_number: d.phone_number.trim() || null,
      address: Object.keys(address).length ? address : null,
      links: Object.fromEntries(LINK_KEYS.flatMap((k) => (d.links[k].trim() ? [[k, d.links[k].trim()]] : []))),
      enquiry_types: d.enquiry_types.map((label) => ({ label })),
      can_be_contacted: d.can_be_contacted,
      working_hours: hours,
      feature_flags: d.feature_flags,
      whitelabelling_enabled: d.whitelabelling_enabled,
      color_brand: brand ?? (d.color_brand.trim() || null),
      on_color_brand: onBrand ?? (d.on_color_brand.trim() || null),
      third_party_codes: { ga4_id: ga4 || null, facebook_pixel_id: pixel || null },
      vat_settings: { enabled: d.vat_enabled, is_vat_absorbed: d.vat_absorbed, tax_label: d.tax_label.trim() || null, ...(rateBp !== undefined && Number.isFinite(rateBp) ? { rate_bp: rateBp } : {}) },
      tos: d.tos || null,
      cancellation_allowed: d.cancellation_on ? Number(days) : null,
    },
  };
}

/** The fields whose value differs from what was loaded: what a save sends. */
export function changedValues(draft: Draft, loaded: Draft): Record<string, unknown> {
  const now = valuesOf(draft).values;
  const was = valuesOf(loaded).values;
  return Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k])));
}

/**
 * The problems a save must refuse: only those of what it sends (a colour pair also when only the brand colour
 * changes), keyed as the server keys them.
 */
export function problemsToSend(problems: Record<string, string>, changes: Record<string, unknown>): Record<string, string> {
  const relevant = Object.keys(problems).filter((k) => k.split('.')[0]! in changes || (k === 'on_color_brand' && 'color_brand' in changes));
  return Object.fromEntries(relevant.map((k) => [k, problems[k]!]));
}
