/**
 * The course form's sections, each the fields of one part of a course: basics, images, description, pricing, spaces
 * and duration, location and travel, booking, FAQs and content. Each edits the draft through `change`.
 */
import {
  COURSE_LEVELS, COURSE_TYPE_LABELS, COURSE_TYPES, DELIVERY_MODE_LABELS, DELIVERY_MODES, EDUCATOR_TRAVEL_TYPES, PRICING_TYPE_LABELS,
  PRICING_TYPES,
} from '../../../domain/admin/course.ts';
import { fieldId, type CourseDraft } from '../../../domain/admin/course-form.ts';
import { spacesHint } from '../../../domain/admin/course-editor.ts';
import { CheckField, CheckGroup, MoneyField, SelectField, TextArea, TextField } from './fields.tsx';
import { AddOnsEditor, DurationsEditor, FaqsEditor, OffersEditor, SectionsEditor } from './ListEditors.tsx';
import ImagesEditor from './ImagesEditor.tsx';
import RichText from './RichText.tsx';
import type { EditorData, Options } from './useCourseEditor.ts';

export interface SectionProps { d: CourseDraft; errors: Record<string, string>; change: (patch: Partial<CourseDraft>) => void }

export function BasicsSection({ d, errors, change, options }: SectionProps & { options: Options }) {
  return (
    <section className="course-section" aria-labelledby="sec-basics">
      <h2 id="sec-basics">Basics</h2>
      <TextField name="name" label="Name" required value={d.name} onChange={(v) => change({ name: v })} error={errors.name} maxLength={150} />
      <TextField
        name="slug" label="Web address" required value={d.slug} error={errors.slug}
        hint="The end of the course's address: lower-case letters, digits and hyphens."
        onChange={(v) => change({ slug: v, slugEdited: true })}
      />
      <SelectField
        name="type" label="Type" value={d.type} error={errors.type} onChange={(v) => change({ type: v })}
        options={COURSE_TYPES.map((t) => ({ value: t, label: COURSE_TYPE_LABELS[t] }))}
      />
      <CheckGroup
        name="delivery_modes" label="Delivery" values={d.delivery_modes} error={errors.delivery_modes} onChange={(v) => change({ delivery_modes: v })}
        options={DELIVERY_MODES.map((m) => ({ value: m, label: DELIVERY_MODE_LABELS[m] }))}
      />
      <SelectField
        name="level" label="Level" value={d.level} error={errors.level} onChange={(v) => change({ level: v })}
        options={[{ value: '', label: 'Not set' }, ...COURSE_LEVELS.map((l) => ({ value: l, label: l === 'All' ? 'All levels' : l })),
          ...(d.level && !(COURSE_LEVELS as readonly string[]).includes(d.level) ? [{ value: d.level, label: d.level }] : [])]}
      />
      <SelectField
        name="category_id" label="Category" value={d.category_id} error={errors.category_id} onChange={(v) => change({ category_id: v })}
        options={[{ value: '', label: 'None' }, ...options.categories.map((c) => ({ value: c.id, label: c.name }))]}
      />
      <TextField name="keyword" label="Keyword" hint={'A word that replaces "course" in the page\u2019s texts, e.g. workshop.'} value={d.keyword} error={errors.keyword} onChange={(v) => change({ keyword: v })} maxLength={40} />
    </section>
  );
}

export function ImagesSection({ d, errors, change, educatorId }: SectionProps & { educatorId: string }) {
  return (
    <section className="course-section" aria-labelledby="sec-images">
      <h2 id="sec-images">Images</h2>
      <ImagesEditor educatorId={educatorId} courseName={d.name} urls={d.img_urls} error={errors.img_urls} onChange={(urls) => change({ img_urls: urls })} />
    </section>
  );
}

export function DescriptionSection({ d, errors, change }: SectionProps) {
  return (
    <section className="course-section" aria-labelledby="sec-description">
      <h2 id="sec-description">Description</h2>
      <RichText name="description" label="Description" value={d.description} error={errors.description} onChange={(html) => change({ description: html })} />
      <TextArea name="meta_description" label="Meta description" hint="What search engines show under the course's name (up to 300 characters)." rows={2} maxLength={300} value={d.meta_description} error={errors.meta_description} onChange={(v) => change({ meta_description: v })} />
    </section>
  );
}

export function PricingSection({ d, errors, change }: SectionProps) {
  return (
    <section className="course-section" aria-labelledby="sec-pricing">
      <h2 id="sec-pricing">Pricing</h2>
      <SelectField
        name="pricing_type" label="Pricing" value={d.pricing_type} error={errors.pricing_type} onChange={(v) => change({ pricing_type: v })}
        options={PRICING_TYPES.map((p) => ({ value: p, label: PRICING_TYPE_LABELS[p] }))}
      />
      {d.pricing_type === 'price-range' ? (
        <div className="course-pair">
          <MoneyField name="minimum_price" label="Minimum price (£)" required value={d.minimum_price} error={errors.minimum_price} onChange={(v) => change({ minimum_price: v })} />
          <MoneyField name="maximum_price" label="Maximum price (£)" required value={d.maximum_price} error={errors.maximum_price} onChange={(v) => change({ maximum_price: v })} />
        </div>
      ) : null}
      <h3>Offers</h3>
      <p className="hint">What learners choose and pay for. Dates may have offers of their own; these apply to dates that have none.</p>
      <OffersEditor offers={d.offers} errors={errors} onChange={(offers) => change({ offers })} />
      <h3>Add-ons</h3>
      <AddOnsEditor addOns={d.add_ons} errors={errors} onChange={(add_ons) => change({ add_ons })} />
    </section>
  );
}

export function CapacitySection({ d, errors, change, minimumSpaces }: SectionProps & { minimumSpaces: EditorData['minimumSpaces'] | undefined }) {
  return (
    <section className="course-section" aria-labelledby="sec-capacity">
      <h2 id="sec-capacity">Spaces and duration</h2>
      <TextField
        name="spaces" label="Spaces" inputMode="numeric" value={d.spaces} error={errors.spaces} onChange={(v) => change({ spaces: v })}
        hint={spacesHint(minimumSpaces)}
      />
      <TextField name="course_duration" label="Duration (minutes)" inputMode="numeric" value={d.course_duration} error={errors.course_duration} onChange={(v) => change({ course_duration: v })} />
      {d.type === 'on-request' ? (
        <>
          <h3>Durations learners choose</h3>
          <p className="hint">For requests: each length learners may ask for, with any extra cost.</p>
          <DurationsEditor durations={d.duration_pricing} errors={errors} onChange={(duration_pricing) => change({ duration_pricing })} />
          <CheckField name="date_requests" label="Learners pick a date and time from your calendar" checked={d.calendar_requests} error={errors.date_requests} onChange={(v) => change({ calendar_requests: v })} hint="For durations up to a day; otherwise they suggest dates." />
        </>
      ) : null}
    </section>
  );
}

function AddressFields({ d, errors, change }: SectionProps) {
  return (
    <fieldset className="admin-fieldset">
      <legend>Address</legend>
      <TextField name="address.line1" label="Address line 1" autoComplete="address-line1" value={d.address.line1} error={errors['address.line1']} onChange={(v) => change({ address: { ...d.address, line1: v } })} />
      <TextField name="address.line2" label="Address line 2" autoComplete="address-line2" value={d.address.line2} error={errors['address.line2']} onChange={(v) => change({ address: { ...d.address, line2: v } })} />
      <div className="course-pair">
        <TextField name="address.city" label="Town or city" autoComplete="address-level2" value={d.address.city} error={errors['address.city']} onChange={(v) => change({ address: { ...d.address, city: v } })} />
        <TextField name="address.postcode" label="Postcode" autoComplete="postal-code" value={d.address.postcode} error={errors['address.postcode']} onChange={(v) => change({ address: { ...d.address, postcode: v } })} />
      </div>
      <div className="course-pair">
        <TextField name="lat" label="Latitude" inputMode="decimal" value={d.lat} error={errors.lat} onChange={(v) => change({ lat: v })} hint="Optional, for the map" />
        <TextField name="lng" label="Longitude" inputMode="decimal" value={d.lng} error={errors.lng} onChange={(v) => change({ lng: v })} hint="Optional, for the map" />
      </div>
    </fieldset>
  );
}

export function LocationSection({ d, errors, change, options }: SectionProps & { options: Options }) {
  return (
    <section className="course-section" aria-labelledby="sec-location">
      <h2 id="sec-location">Location and travel</h2>
      <AddressFields d={d} errors={errors} change={change} />
      <CheckField name="available_for_online_delivery" label="Available online" checked={d.available_for_online_delivery} error={errors.available_for_online_delivery} onChange={(v) => change({ available_for_online_delivery: v })} />
      <CheckField name="available_for_in_person_delivery" label="Available in person" checked={d.available_for_in_person_delivery} error={errors.available_for_in_person_delivery} onChange={(v) => change({ available_for_in_person_delivery: v })} hint="Unticked, neither travel option below is offered." />
      <CheckField name="educator_travel_settings.enabled" label="You travel to learners" checked={d.educator_travel_enabled} onChange={(v) => change({ educator_travel_enabled: v })} />
      {d.educator_travel_enabled ? (
        <SelectField
          name="educator_travel_settings.type" label="How far you travel" value={d.educator_travel_type} error={errors['educator_travel_settings.type']}
          onChange={(v) => change({ educator_travel_type: v })}
          options={[{ value: '', label: 'Not said' }, ...EDUCATOR_TRAVEL_TYPES.map((t) => ({ value: t, label: t === 'UK Wide' ? 'UK wide' : 'UK and internationally' }))]}
        />
      ) : null}
      <CheckField name="student_travel_settings.enabled" label="Learners travel to you" checked={d.student_travel_enabled} onChange={(v) => change({ student_travel_enabled: v })} />
      {d.student_travel_enabled ? (
        options.locations.length ? (
          <CheckGroup
            name="student_travel_settings.locations" label="At these locations" values={d.student_travel_locations} error={errors['student_travel_settings.locations']}
            onChange={(v) => change({ student_travel_locations: v })} options={options.locations.map((l) => ({ value: l.id, label: l.name }))}
          />
        ) : (
          <p className="field-error" id={`${fieldId('student_travel_settings.locations')}`}>Add a location on the Locations screen first.</p>
        )
      ) : null}
    </section>
  );
}

export function BookingSection({ d, errors, change, options }: SectionProps & { options: Options }) {
  const formOptions = options.forms.map((f) => ({ value: f.id, label: f.name }));
  return (
    <section className="course-section" aria-labelledby="sec-booking">
      <h2 id="sec-booking">Booking</h2>
      <SelectField name="form_ref" label="Booking form" hint="The questions the person booking answers." value={d.form_ref} error={errors.form_ref} onChange={(v) => change({ form_ref: v })} options={formOptions} />
      <CheckField name="capture_guests" label="Ask for each attendee's details" checked={d.capture_guests} error={errors.capture_guests} onChange={(v) => change({ capture_guests: v })} />
      {d.capture_guests ? (
        <SelectField
          name="guest_form_ref" label="Attendee form" value={d.guest_form_ref} error={errors.guest_form_ref} onChange={(v) => change({ guest_form_ref: v })}
          options={[{ value: '', label: 'Same as the booking form' }, ...formOptions]}
        />
      ) : null}
      <CheckField name="approval_required" label="You approve each booking" hint="Learners apply; you accept or decline before anything is paid." checked={d.approval_required} error={errors.approval_required} onChange={(v) => change({ approval_required: v })} />
      <CheckField name="restricted" label="Only people you name may book" checked={d.restricted} error={errors.restricted} onChange={(v) => change({ restricted: v })} />
      {d.restricted ? (
        <TextArea
          name="restricted_emails" label="Their e-mail addresses" hint="One a line." rows={4} value={d.restricted_emails}
          error={errors.restricted_emails ?? Object.entries(errors).find(([k]) => k.startsWith('restricted_emails.'))?.[1]}
          onChange={(v) => change({ restricted_emails: v })}
        />
      ) : null}
    </section>
  );
}

export function FaqsSection({ d, errors, change }: SectionProps) {
  return (
    <section className="course-section" aria-labelledby="sec-faqs">
      <h2 id="sec-faqs">Frequently asked questions</h2>
      <FaqsEditor faqs={d.faqs} errors={errors} onChange={(faqs) => change({ faqs })} />
    </section>
  );
}

export function ContentSection({ d, errors, change }: SectionProps) {
  return (
    <section className="course-section" aria-labelledby="sec-content">
      <h2 id="sec-content">Content</h2>
      <p className="hint">Sections and lessons, shown on on-demand and blended courses.</p>
      <SectionsEditor sections={d.sections} errors={errors} onChange={(sections) => change({ sections })} />
    </section>
  );
}
