/**
 * The page service of the checkout pages (src/pages/checkout.astro, src/pages/embed/checkout.astro): reads the
 * query and the request's context, and loads the catalogue facts the island shows but the API's checkout
 * state does not carry (course and educator names, slugs, offers, forms, flags, analytics ids, locations).
 * Everything that changes per learner or per minute (the checkout, occurrences, spaces, costs, forms'
 * answers, payment options) is loaded by the island from the API.
 */
import type { Deps } from '../deps.ts';
import { siteConfig, PRODUCT_NAME } from '../../src/lib/config.ts';
import { sanitize } from '../../src/lib/html.ts';
import { loadLocations, type CourseCatalogue } from '../../db/queries/checkout.ts';
import { catalogueCache } from '../checkout/catalogue-cache.ts';
import { bookerFormRef } from '../../src/domain/checkout/validation.ts';
import { courseFlow, flowSellsCourse, isFlow, originForContext, type Flow } from '../../src/domain/checkout/flows.ts';
import { problems } from '../../src/domain/problems.ts';
import type { CheckoutBootstrap, CheckoutCourse, CheckoutEducator } from '../../src/islands/checkout/types.ts';
import type { AppContext } from '../../src/domain/app-context.ts';
import type { Educator } from '../../db/schema.ts';
import type { CheckoutPageData } from '../../src/lib/page-services.ts';
import { availableMethods, publicPaymentConfig } from '../payments/registry.ts';
import { giftVouchersSold } from '../../db/queries/gifts.ts';
import { safeImageUrl } from '../../src/domain/urls.ts';

function text(value: string | null): string | null {
  const v = value?.trim();
  return v ? v.slice(0, 2000) : null;
}

export async function loadCheckoutPage(deps: Pick<Deps, 'db' | 'config'>, url: URL, context: AppContext): Promise<CheckoutPageData> {
  const bootstrap = await loadCheckoutBootstrap(deps, url, context);
  const brand = bootstrap.educator
    ? (await deps.db.selectFrom('educators').select(['color_brand', 'on_color_brand']).where('id', '=', bootstrap.educator.id).executeTakeFirst()) ?? null
    : null;
  return { bootstrap, brand };
}

type PageDeps = Pick<Deps, 'db' | 'config'>;

/** The page's answer before anything is loaded: the query's ids and the site's settings. */
function baseBootstrap(deps: PageDeps, params: URLSearchParams, context: AppContext, courseId: string | null): CheckoutBootstrap {
  const { host, protocol } = siteConfig();
  return {
    context,
    origin: originForContext(context),
    flow: null,
    courseId,
    occurrenceId: text(params.get('occurrence')),
    parentWindowUrl: context === 'embed' ? text(params.get('parent_window_url')) : null,
    host,
    protocol,
    productName: PRODUCT_NAME,
    course: null,
    educator: null,
    locations: [],
    payment: publicPaymentConfig(deps.config),
    problem: null,
  };
}

/** A flow that sells from the educator (gift voucher, membership): ?educator={id or slug}, or the resumed checkout's. */
async function educatorFlowBootstrap(deps: PageDeps, params: URLSearchParams, checkoutId: string | null, base: CheckoutBootstrap, flowParam: Flow): Promise<CheckoutBootstrap> {
  const db = deps.db;
  let educatorRef = text(params.get('educator'));
  if (!educatorRef && checkoutId) {
    educatorRef = (await db.selectFrom('checkouts').select('educator_id').where('id', '=', checkoutId).executeTakeFirst())?.educator_id ?? null;
  }
  const educator = educatorRef
    ? await db.selectFrom('educators').selectAll().where((eb) => eb.or([eb('id', '=', educatorRef), eb('slug', '=', educatorRef)])).executeTakeFirst()
    : undefined;
  if (!educator) return { ...base, courseId: null, problem: problems.notFound('No such educator') };
  // Gift vouchers not on sale (switched off, or nothing the gift flow can be paid with): the page is not found.
  if (flowParam === 'giftVoucher' && !(await giftVouchersSold(db, educator.id, undefined, availableMethods(deps.config)))) {
    return { ...base, courseId: null, flow: flowParam, problem: problems.notFound('This educator does not sell gift vouchers.') };
  }
  return { ...base, courseId: null, flow: flowParam, educator: educatorView(educator) };
}

/** The catalogue facts of the course the island shows. */
function courseView(cat: CourseCatalogue): CheckoutCourse {
  const { course, educator } = cat;
  const bookerForm = bookerFormRef(course, educator);
  return {
    id: course.id,
    slug: course.slug,
    name: course.name,
    type: course.type,
    keyword: course.keyword,
    currency: course.currency || 'GBP',
    spaces: course.spaces,
    pricingType: course.pricing_type,
    captureGuests: !!course.capture_guests,
    approvalRequired: !!course.approval_required,
    address: course.address,
    courseDuration: course.course_duration,
    durationPricing: (course.duration_pricing ?? []).map((d) => ({
      _id: d._id, duration: d.duration, label: d.label ?? null, description: d.description ?? null, extra_cost: d.extra_cost ?? null,
    })),
    dateRequests: course.date_requests,
    availableForOnlineDelivery: !!course.available_for_online_delivery,
    availableForInPersonDelivery: !!course.available_for_in_person_delivery,
    educatorTravelSettings: { enabled: !!course.educator_travel_settings?.enabled, type: course.educator_travel_settings?.type ?? null },
    studentTravelSettings: { enabled: !!course.student_travel_settings?.enabled, locations: course.student_travel_settings?.locations ?? [] },
    offers: cat.offers.map((o) => ({
      _id: o.id, name: o.name, description: o.description, price: o.price, spaces: o.spaces ?? 1,
      start_at: o.start_at === null ? null : Number(o.start_at), end_at: o.end_at === null ? null : Number(o.end_at),
    })),
    addOns: cat.addOns.map((a) => ({ _id: a.id, name: a.name, description: a.description, price: a.price ?? 0 })),
    bookerFormId: bookerForm,
    attendeeFormId: course.guest_form_ref || bookerForm,
  };
}

async function loadCheckoutBootstrap(deps: PageDeps, url: URL, context: AppContext): Promise<CheckoutBootstrap> {
  const params = url.searchParams;
  let courseId = text(params.get('course'));
  let flowParam = text(params.get('flow'));
  const checkoutId = text(params.get('checkoutId'));
  const base = baseBootstrap(deps, params, context, courseId);
  const db = deps.db;
  if (checkoutId && (!courseId || !flowParam)) {
    // A resumed checkout whose URL lost its course or flow: the stored checkout knows them.
    const row = await db.selectFrom('checkouts').select(['course_id', 'flow']).where('id', '=', checkoutId).executeTakeFirst();
    if (row) {
      courseId ??= row.course_id;
      flowParam ??= row.flow;
    }
  }
  if (isFlow(flowParam) && !flowSellsCourse(flowParam)) return educatorFlowBootstrap(deps, params, checkoutId, base, flowParam);
  if (!courseId) return { ...base, problem: problems.notFound('No course was chosen for this checkout.') };
  const cat = await catalogueCache(db).course(db, courseId);
  if (!cat || !cat.course.published) return { ...base, courseId, problem: problems.notFound('No such course') };
  const { course, educator } = cat;
  const flow: Flow = isFlow(flowParam) ? flowParam : courseFlow(course);
  const locations = course.student_travel_settings?.enabled ? await loadLocations(db, course.student_travel_settings.locations ?? []) : [];
  return {
    ...base,
    courseId,
    flow,
    course: courseView(cat),
    educator: educatorView(educator),
    locations: locations.map((l) => ({ _id: l._id, name: l.name, formatted: l.formatted })),
  };
}

function educatorView(educator: Educator): CheckoutEducator {
  return {
    id: educator.id,
    slug: educator.slug,
    name: educator.name,
    logoUrl: safeImageUrl(educator.logo_url, null),
    tos: sanitize(educator.tos),
    cancellationAllowed: educator.cancellation_allowed,
    featureFlags: educator.feature_flags ?? {},
    thirdPartyCodes: educator.third_party_codes ?? {},
    whitelabelled: !!educator.whitelabelling_enabled,
  };
}
