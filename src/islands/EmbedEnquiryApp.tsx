/**
 * The embed's enquiry page (/embed/enquiry?educator={slug}): one static shell for every educator
 * (the spec's embed enquiry link carries no educator, so it travels in ?educator=). It loads the
 * educator's build-time data (/embed/{slug}/enquiry.json), applies the brand colours, and shows the
 * profile header, tabs and the enquiry form.
 */
import { useEffect, useState } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { profileTabs } from '../lib/nav.ts';
import { showRatingSummary } from '../domain/ratings.ts';
import { educatorLinks } from '../domain/links.ts';
import StarRating from '../components/StarRating.tsx';
import EnquiryForm from './EnquiryForm.tsx';
import { brandVariables } from '../lib/colour.ts';

export interface EmbedEnquiryData {
  educator: {
    id: string; slug: string; name: string; city: string | null; logoUrl: string; coverUrl: string;
    canBeContacted: boolean; rating: { rating: number; count: number } | null;
    /** Optional: a file written before these were added still loads (the tabs then show). */
    vouchersAppInstalled?: boolean; hasMembershipPlans?: boolean;
  };
  brand: { colour: string; hover: string; onBrand: string; whitelabelled: boolean };
  enquiryTypes: string[];
  courses: { id: string; slug: string; name: string }[];
  listings: CourseCard[];
  links: LinkContext;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export default function EmbedEnquiryApp() {
  const [data, setData] = useState<EmbedEnquiryData | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const slug = new URLSearchParams(window.location.search).get('educator') ?? '';
    if (!SLUG.test(slug)) {
      setFailed(true);
      return;
    }
    fetch(`/embed/${slug}/enquiry.json`)
      .then((res) => (res.ok ? (res.json() as Promise<EmbedEnquiryData>) : Promise.reject(new Error(String(res.status)))))
      .then((body) => {
        const root = document.documentElement.style;
        for (const [name, value] of Object.entries(brandVariables(body.brand.colour, body.brand.onBrand))) root.setProperty(name, value);
        document.title = `Contact ${body.educator.name} | ${body.educator.name}`;
        const powered = document.querySelector<HTMLElement>('[data-powered-by]');
        if (powered) powered.hidden = body.brand.whitelabelled;
        setData(body);
      })
      .catch(() => setFailed(true));
  }, []);

  if (failed) {
    return (
      <div className="container section">
        <h1>404 - Not found</h1>
        <p>This enquiry form is not available.</p>
      </div>
    );
  }
  if (!data) return <div className="container section" role="status"><p className="muted">Loading…</p></div>;

  const { educator } = data;
  const tabs = profileTabs('embed', {
    slug: educator.slug, can_be_contacted: educator.canBeContacted, vouchers_app_installed: educator.vouchersAppInstalled, has_membership_plans: educator.hasMembershipPlans,
  });
  return (
    <>
      <div className="profile-cover"><img src={educator.coverUrl} alt="" width={1600} height={400} /></div>
      <div className="container">
        <div className="profile-head">
          <img className="profile-logo" src={educator.logoUrl} alt={`${educator.name} logo`} width={104} height={104} />
          <div className="profile-head__text">
            <p className="h1" style={{ margin: 0, fontWeight: 800, fontSize: 'clamp(1.5rem, 3vw, 2rem)' }}>{educator.name}</p>
            {educator.city && <p className="muted" style={{ margin: 0 }}>{educator.city}</p>}
            {educator.rating && showRatingSummary(educator.rating.count) && <StarRating rating={educator.rating.rating} count={educator.rating.count} showValue />}
          </div>
        </div>
        <nav className="tabs" aria-label={`${educator.name} pages`}>
          {tabs.map((tab) => <a key={tab.key} href={tab.href} aria-current={tab.key === 'enquiry' ? 'page' : undefined}>{tab.label}</a>)}
        </nav>
        <div className="section narrow">
          <EnquiryForm
            kind="message"
            headingLevel={1}
            educator={{ id: educator.id, slug: educator.slug, name: educator.name }}
            enquiryTypes={data.enquiryTypes}
            links={data.links}
            courses={data.courses}
            listings={data.listings}
            coursesHref={educatorLinks('embed', educator.slug).courses}
          />
        </div>
      </div>
    </>
  );
}
