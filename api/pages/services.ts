/**
 * The server side of on-demand pages: the implementation of src/lib/page-services.ts that api/app.ts passes to
 * every Astro render as Astro.locals.services. Pages hold no queries and import nothing from api/; each service is
 * a thin call into the API's own modules and db/queries.
 */
import { giftCardViews } from '../gifts/views.ts';
import { giftVouchersSold } from '../../db/queries/gifts.ts';
import { availableMethods } from '../payments/registry.ts';
import type { Deps } from '../deps.ts';
import type { PageServices } from '../../src/lib/page-services.ts';
import { pageSite } from '../../src/lib/page-locals.ts';
import { baseHostname } from '../config.ts';
import { mainSiteOrigin, visitorUrl } from '../shared/origins.ts';
import { peekToken } from '../auth/sessions.ts';
import { accountOf, findUserById } from '../auth/users.ts';
import { addReviewPage } from './add-review-page.ts';
import { outcomePage } from './booking-page.ts';
import { checkoutTablesExist, findClaim, listOwnReviews, listProfileItems } from '../../db/queries/accounts.ts';
import { listSavedCourses } from '../../db/queries/saved-courses.ts';
import { loadPayInvoice } from '../../db/queries/bookings.ts';
import { loadCheckoutPage } from './checkout-bootstrap.ts';
import { safeImageUrl } from '../../src/domain/urls.ts';
import { createAdminPageServices } from '../admin/page-services.ts';

export function createPageServices(deps: Deps): PageServices {
  const { db, config } = deps;
  const giftVouchersOn = (educatorId: string) => giftVouchersSold(db, educatorId, undefined, availableMethods(config));
  return {
    admin: createAdminPageServices(deps),
    mainOrigin: () => mainSiteOrigin(config),
    mainHostname: () => baseHostname(config),
    visitorUrl: (astro, path) => visitorUrl(config, pageSite(astro).minisiteSlug, path),
    checkoutPage: (url, context) => loadCheckoutPage(deps, url, context),
    giftCheckoutPage: async (pageUrl, educatorSlug, context) => {
      const url = new URL(pageUrl);
      url.searchParams.set('flow', 'giftVoucher');
      url.searchParams.set('educator', educatorSlug);
      const page = await loadCheckoutPage(deps, url, context);
      const { bootstrap } = page;
      const onSale = !bootstrap.problem && !!bootstrap.educator && (await giftVouchersOn(bootstrap.educator.id));
      return { ...page, onSale };
    },
    payInvoice: async (kind, id, userId) => {
      const view = id.length < 200 ? await loadPayInvoice(db, kind, id) : null;
      return view && view.user_id === userId ? view : null;
    },
    outcomePage: (astro, context, kind) => outcomePage(deps, astro, context, kind),
    addReviewPage: (astro, context, educatorSlug, courseSlug) => addReviewPage(deps, astro, context, educatorSlug, courseSlug),
    loginPage: async (educatorId, token) => {
      const row = educatorId && educatorId.length < 200
        ? await db.selectFrom('educators').select(['name', 'logo_url']).where('id', '=', educatorId).executeTakeFirst()
        : undefined;
      const found = token ? await peekToken(db, token, ['magic-link', 'signup'], deps.now()) : null;
      return {
        educator: row ? { name: row.name, logo: safeImageUrl(row.logo_url, null) } : null,
        link: token ? { token, email: found?.email ?? null, valid: !!found, purpose: (found?.purpose ?? null) as 'magic-link' | 'signup' | null } : null,
      };
    },
    claimPage: async (slug, userId) => {
      const educator = slug.length <= 200 ? (await db.selectFrom('educators').selectAll().where('slug', '=', slug).executeTakeFirst()) ?? null : null;
      const requested = userId && educator ? !!(await findClaim(db, userId, educator.id)) : false;
      return { educator, requested };
    },
    profile: async (studentId) => ({
      items: (await checkoutTablesExist(db)) ? await listProfileItems(db, studentId) : [],
      reviews: await listOwnReviews(db, studentId),
    }),
    savedCourses: (studentId) => listSavedCourses(db, studentId, deps.now()),
    giftVouchersOn,
    membershipPlansListed: async (educatorId) =>
      !!(await db.selectFrom('membership_plans').select('id').where('educator_id', '=', educatorId).where('listed', '=', true).limit(1).executeTakeFirst()),
    giftCards: (user) => giftCardViews(db, user, deps.now(), deps.config.APP_SECRET),
    accountSettings: async (userId) => {
      const row = await findUserById(db, userId);
      return row ? accountOf(row) : null;
    },
  };
}
