/**
 * The sections of the profile form (ProfileForm.tsx), one per heading: each shows its part of the draft and its
 * fields' messages (`err`), and changes the draft through `update` (useProfileEditor.ts).
 */
import { DEFAULT_BRAND_COLOUR, DEFAULT_ON_BRAND_COLOUR } from '../../../domain/avatars.ts';
import { normaliseHexColour } from '../../../domain/admin/educator-profile.ts';
import { brandContrast } from '../../../lib/admin-branding.ts';
import { Check, Field } from './fields.tsx';
import RichText from './RichText.tsx';
import ImageUpload from './ImageUpload.tsx';
import { ADDRESS_KEYS, ADDRESS_LABELS, FLAGS, LINK_KEYS, LINK_LABELS, type AddressKey, type Draft } from './profileDraft.ts';
import type { Update } from './useProfileEditor.ts';

export interface SectionProps {
  draft: Draft;
  update: Update;
  err(key: string): string | null;
}

export function IdentitySection({ draft, update, err, host, protocol, slugChanged, oldSlugs }: SectionProps & { host: string; protocol: string; slugChanged: boolean; oldSlugs: string[] }) {
  return (
    <section aria-labelledby="sec-identity">
      <h2 id="sec-identity">Name and web address</h2>
      <Field id="p-name" label="Name" error={err('name')}>
        {(aria) => <input {...aria} type="text" maxLength={120} autoComplete="organization" value={draft.name} onChange={(e) => update({ name: e.currentTarget.value }, 'name')} />}
      </Field>
      <Field
        id="p-slug"
        label="Web address"
        error={err('slug')}
        hint={<>Your pages: <span className="edu-url">{protocol}://{host}/{draft.slug || '…'}</span>, <span className="edu-url">{protocol}://{draft.slug || '…'}.{host}</span> and <span className="edu-url">{protocol}://{host}/embed/{draft.slug || '…'}</span>.{slugChanged ? ' Your current addresses will keep working: they will redirect to the new ones.' : ''}{oldSlugs.length ? ` Old addresses that redirect here: ${oldSlugs.join(', ')}.` : ''}</>}
      >
        {(aria) => <input {...aria} type="text" maxLength={63} autoCapitalize="none" spellCheck={false} value={draft.slug} onChange={(e) => update({ slug: e.currentTarget.value.toLowerCase() }, 'slug')} />}
      </Field>
    </section>
  );
}

export function AboutSection({ draft, update, err, educatorId }: SectionProps & { educatorId: string }) {
  return (
    <section aria-labelledby="sec-about">
      <h2 id="sec-about">About, logo and cover</h2>
      <RichText id="p-bio" label="About you (bio)" hint="Shown on your About page. Bold, italic, lists and links are kept." error={err('bio')} value={draft.bio} onChange={(bio) => update({ bio }, 'bio')} />
      <ImageUpload id="p-logo" educatorId={educatorId} kind="logo" label="Logo" value={draft.logo_url} error={err('logo_url')} onChange={(logo_url) => update({ logo_url }, 'logo_url')} />
      <ImageUpload id="p-cover" educatorId={educatorId} kind="cover" label="Cover image" value={draft.cover_url} error={err('cover_url')} onChange={(cover_url) => update({ cover_url }, 'cover_url')} />
    </section>
  );
}

const ADDRESS_AUTOCOMPLETE: Record<AddressKey, string> = { line1: 'address-line1', line2: 'address-line2', city: 'address-level2', postcode: 'postal-code' };

export function ContactSection({ draft, update, err }: SectionProps) {
  return (
    <section aria-labelledby="sec-contact">
      <h2 id="sec-contact">Contact details</h2>
      <div className="edu-grid">
        <Field id="p-email" label="Contact e-mail" error={err('email')}>
          {(aria) => <input {...aria} type="email" autoComplete="email" maxLength={254} value={draft.email} onChange={(e) => update({ email: e.currentTarget.value }, 'email')} />}
        </Field>
        <Field id="p-phone" label="Phone" error={err('phone_number')} hint="Stored in international form, e.g. +44 20 7946 0000.">
          {(aria) => <input {...aria} type="tel" autoComplete="tel" maxLength={40} value={draft.phone_number} onChange={(e) => update({ phone_number: e.currentTarget.value }, 'phone_number')} />}
        </Field>
      </div>
      <fieldset>
        <legend>Address</legend>
        <div className="edu-grid">
          {ADDRESS_KEYS.map((k) => (
            <Field key={k} id={`p-address-${k}`} label={ADDRESS_LABELS[k]} error={err(`address.${k}`)}>
              {(aria) => <input {...aria} type="text" maxLength={200} autoComplete={ADDRESS_AUTOCOMPLETE[k]} value={draft.address[k]} onChange={(e) => update({ address: { ...draft.address, [k]: e.currentTarget.value } })} />}
            </Field>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Website and social profiles</legend>
        <div className="edu-grid">
          {LINK_KEYS.map((k) => (
            <Field key={k} id={`p-link-${k}`} label={LINK_LABELS[k]} error={err(`links.${k}`)}>
              {(aria) => <input {...aria} type="url" inputMode="url" maxLength={2048} placeholder="https://" value={draft.links[k]} onChange={(e) => update({ links: { ...draft.links, [k]: e.currentTarget.value } }, `links.${k}`)} />}
            </Field>
          ))}
        </div>
      </fieldset>
      <Check id="p-contactable" checked={draft.can_be_contacted} onChange={(v) => update({ can_be_contacted: v })} label="Learners can send you enquiries" hint="Shows the Contact button and your enquiry page." />
      <EnquiryTypes draft={draft} update={update} err={err} />
    </section>
  );
}

function EnquiryTypes({ draft, update, err }: SectionProps) {
  return (
    <fieldset>
      <legend>Enquiry types</legend>
      <p className="hint">Learners choose one when they send an enquiry (for example "Private booking"). Leave empty for none.</p>
      <ul className="edu-list">
        {draft.enquiry_types.map((label, i) => (
          <li key={i} className="edu-row">
            <Field id={`p-enquiry-${i}`} label={`Enquiry type ${i + 1}`} error={err(`enquiry_types.${i}.label`)}>
              {(aria) => <input {...aria} type="text" maxLength={80} value={label} onChange={(e) => update({ enquiry_types: draft.enquiry_types.map((x, k) => (k === i ? e.currentTarget.value : x)) }, `enquiry_types.${i}.label`)} />}
            </Field>
            <button type="button" className="btn btn--secondary btn--small" onClick={() => update({ enquiry_types: draft.enquiry_types.filter((_, k) => k !== i) })}>Remove enquiry type {i + 1}</button>
          </li>
        ))}
      </ul>
      {draft.enquiry_types.length < 20 && <button type="button" className="btn btn--secondary btn--small" onClick={() => update({ enquiry_types: [...draft.enquiry_types, ''] })}>Add an enquiry type</button>}
    </fieldset>
  );
}

export function BrandingSection({ draft, update, err }: SectionProps) {
  const brandShown = normaliseHexColour(draft.color_brand) ?? DEFAULT_BRAND_COLOUR;
  const onBrandShown = normaliseHexColour(draft.on_color_brand) ?? DEFAULT_ON_BRAND_COLOUR;
  const contrast = brandContrast(brandShown, onBrandShown);
  return (
    <section aria-labelledby="sec-brand">
      <h2 id="sec-brand">Branding</h2>
      <Check
        id="p-whitelabel"
        checked={draft.whitelabelling_enabled}
        onChange={(v) => update({ whitelabelling_enabled: v })}
        label="White-label your site and embed"
        hint="Hides our branding (the &quot;Powered by&quot; banner) and uses your brand colour on your site and embed."
      />
      <div className="edu-grid">
        <Field id="p-brand" label="Brand colour" error={err('color_brand')} hint="Buttons and the header. Empty: our blue.">
          {(aria) => (
            <span className="edu-colour">
              <input type="color" aria-label="Pick the brand colour" value={brandShown} onChange={(e) => update({ color_brand: e.currentTarget.value }, 'color_brand', 'on_color_brand')} />
              <input {...aria} type="text" maxLength={7} placeholder={DEFAULT_BRAND_COLOUR} value={draft.color_brand} onChange={(e) => update({ color_brand: e.currentTarget.value }, 'color_brand', 'on_color_brand')} />
            </span>
          )}
        </Field>
        <Field id="p-onbrand" label="Text on the brand colour" error={err('on_color_brand')} hint="Empty: white.">
          {(aria) => (
            <span className="edu-colour">
              <input type="color" aria-label="Pick the text colour on the brand colour" value={onBrandShown} onChange={(e) => update({ on_color_brand: e.currentTarget.value }, 'on_color_brand')} />
              <input {...aria} type="text" maxLength={7} placeholder={DEFAULT_ON_BRAND_COLOUR} value={draft.on_color_brand} onChange={(e) => update({ on_color_brand: e.currentTarget.value }, 'on_color_brand')} />
            </span>
          )}
        </Field>
      </div>
      <p className="edu-contrast" role="status" data-pass={contrast.passes ? 'true' : 'false'} data-testid="contrast">
        Contrast {contrast.ratio.toFixed(2)}:1 — {contrast.passes ? `passes WCAG ${contrast.level} for text` : 'too low for text: WCAG AA needs 4.5:1'}.
      </p>
      {contrast.passes && (
        <p><span className="edu-swatch" style={{ background: brandShown, color: onBrandShown }}>Book now</span> <span className="hint">Links on your pages: <span style={{ color: contrast.link, fontWeight: 600 }}>{contrast.link}</span></span></p>
      )}
    </section>
  );
}

export function FlagsSection({ draft, update }: Omit<SectionProps, 'err'>) {
  return (
    <section aria-labelledby="sec-flags">
      <h2 id="sec-flags">Page options</h2>
      {FLAGS.map(([key, label, hint]) => (
        <Check key={key} id={`p-flag-${key}`} checked={draft.feature_flags[key]} onChange={(v) => update({ feature_flags: { ...draft.feature_flags, [key]: v } })} label={label} hint={hint} />
      ))}
    </section>
  );
}

export function AnalyticsSection({ draft, update, err }: SectionProps) {
  return (
    <section aria-labelledby="sec-analytics">
      <h2 id="sec-analytics">Analytics</h2>
      <p className="hint">Your checkout sends begin_checkout and purchase events to your own Google Analytics and Meta pixel.</p>
      <div className="edu-grid">
        <Field id="p-ga4" label="Google Analytics 4 measurement id" error={err('third_party_codes.ga4_id')} hint="G- and letters or digits, e.g. G-1A2B3C4D5E.">
          {(aria) => <input {...aria} type="text" maxLength={20} autoCapitalize="characters" spellCheck={false} value={draft.ga4_id} onChange={(e) => update({ ga4_id: e.currentTarget.value }, 'third_party_codes.ga4_id')} />}
        </Field>
        <Field id="p-pixel" label="Meta (Facebook) pixel id" error={err('third_party_codes.facebook_pixel_id')} hint="Digits only.">
          {(aria) => <input {...aria} type="text" inputMode="numeric" maxLength={24} spellCheck={false} value={draft.pixel_id} onChange={(e) => update({ pixel_id: e.currentTarget.value }, 'third_party_codes.facebook_pixel_id')} />}
        </Field>
      </div>
    </section>
  );
}

export function VatSection({ draft, update, err }: SectionProps) {
  return (
    <section aria-labelledby="sec-vat">
      <h2 id="sec-vat">VAT</h2>
      <Check id="p-vat" checked={draft.vat_enabled} onChange={(v) => update({ vat_enabled: v })} label="Charge VAT" hint="Prices show the tax label beside them." />
      {draft.vat_enabled && (
        <>
          <fieldset>
            <legend>Your prices</legend>
            <div className="edu-radio"><input id="p-vat-in" type="radio" name="vat-absorbed" checked={draft.vat_absorbed} onChange={() => update({ vat_absorbed: true })} /><label htmlFor="p-vat-in">Include VAT (shown as "(incl. {draft.tax_label.trim() || 'Tax'})")</label></div>
            <div className="edu-radio"><input id="p-vat-add" type="radio" name="vat-absorbed" checked={!draft.vat_absorbed} onChange={() => update({ vat_absorbed: false })} /><label htmlFor="p-vat-add">Have VAT added (shown as "+ {draft.tax_label.trim() || 'Tax'}")</label></div>
          </fieldset>
          <div className="edu-grid">
            <Field id="p-tax-label" label="Tax label" error={err('vat_settings.tax_label')} hint='Empty: "Tax".'>
              {(aria) => <input {...aria} type="text" maxLength={20} value={draft.tax_label} onChange={(e) => update({ tax_label: e.currentTarget.value })} />}
            </Field>
            <Field id="p-vat-rate" label="VAT rate (%)" error={err('vat_settings.rate_bp')} hint="Empty: 20%.">
              {(aria) => <input {...aria} type="number" min={0} max={100} step={0.01} inputMode="decimal" value={draft.vat_rate} onChange={(e) => update({ vat_rate: e.currentTarget.value }, 'vat_settings.rate_bp')} />}
            </Field>
          </div>
        </>
      )}
    </section>
  );
}

export function TermsSection({ draft, update, err }: SectionProps) {
  return (
    <section aria-labelledby="sec-terms">
      <h2 id="sec-terms">Terms and cancellation</h2>
      <RichText id="p-tos" label="Your terms of service" hint="Learners accept these in your checkout (unless hidden above)." error={err('tos')} value={draft.tos} onChange={(tos) => update({ tos }, 'tos')} />
      <Check id="p-cancel" checked={draft.cancellation_on} onChange={(v) => update({ cancellation_on: v, cancellation_days: v && !draft.cancellation_days ? '14' : draft.cancellation_days }, 'cancellation_allowed')} label="Offer free cancellation" hint='Shown as "Free cancellation N day(s) prior" (not for on-demand courses).' />
      {draft.cancellation_on && (
        <Field id="p-cancel-days" label="Days before the date" error={err('cancellation_allowed')}>
          {(aria) => <input {...aria} type="number" min={0} max={365} step={1} inputMode="numeric" value={draft.cancellation_days} onChange={(e) => update({ cancellation_days: e.currentTarget.value }, 'cancellation_allowed')} />}
        </Field>
      )}
    </section>
  );
}
