/**
 * Spec 2.14 "Request Delivery": offers (or "Spaces" with a "Number of people" counter), the "Delivery" radio
 * (Online; "In-person • I will host {educator}" with "Enter your address"; "In-person • I will travel to
 * {educator}" with "Select a location" or the single location's address) and the "Preferred Duration" radio
 * (hidden with one option). Continue submits "request delivery configured" {selectedDurationId, delivery, pricing}.
 * Defaults (spec 4) come from the server's `defaults.delivery`.
 */
import { useId, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, submitAction } from '../../../stores/checkout.ts';
import { STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { deliveryOptionLabel } from '../../../domain/checkout/messages.ts';
import {
  availableDeliveryTypes, pickLocation, requestPricingSpaces, showDurationChoice, showLocationDropdown, type RequestDelivery, type RequestDeliveryType, type RequestPricing,
} from '../../../domain/checkout/defaults.ts';
import { checkoutDurationText } from '../../../domain/time.ts';
import { formatDurationExtra } from '../../../domain/money.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';
import type { SelectedOffer } from '../../../domain/pricing.ts';
import { AddOnsList, OffersList, PromoBox, storedVoucher, type AddOnLine, type AppliedVoucher } from './OffersPicker.tsx';
import { QuantityRow, StepForm, StepHeading, useContinue, useCostSummaryPreview, useCurrency, usePricesVisible } from '../shared.tsx';
import type { CheckoutCourse, CheckoutLocation, DurationView } from '../types.ts';

/** The ids with a quantity above 0 in a stored map of id → quantity. */
function positiveEntries(map: Record<string, number> | undefined): [string, number][] {
  return Object.entries(map ?? {}).filter(([, q]) => q > 0);
}

type DeliveryStart = { selectedDurationId?: string | null; delivery?: RequestDelivery | null; pricing?: RequestPricing | null };

/** The delivery the learner chose: its type, the address for a visit, the location for travelling to the educator. */
function useDeliveryChoice(start: DeliveryStart, types: RequestDeliveryType[], locations: CheckoutLocation[]) {
  const [deliveryType, setDeliveryType] = useState<RequestDeliveryType>(start.delivery?.type ?? types[0] ?? 'Online');
  const [address, setAddress] = useState(start.delivery?.type === 'Educator travels' ? start.delivery.address : '');
  const [locationRef, setLocationRef] = useState<string | null>(
    start.delivery?.type === 'Student travels' ? start.delivery.location_ref : locations[0]?._id ?? null,
  );
  const delivery = (): RequestDelivery => {
    if (deliveryType === 'Online') return { type: 'Online' };
    if (deliveryType === 'Educator travels') return { type: 'Educator travels', address };
    return { type: 'Student travels', location_ref: locationRef ?? '' };
  };
  return { deliveryType, setDeliveryType, address, setAddress, locationRef, setLocationRef, delivery };
}

/** The offers and add-ons (a course with offers) or the "Number of people", as the request's pricing. */
function usePricingChoice(start: DeliveryStart, course: CheckoutCourse) {
  const startPricing = start.pricing ?? (course.offers.length > 0 ? { type: 'offers' as const, offers: {}, addOns: {} } : { type: 'spaces' as const, quantity: 1 });
  const [offers, setOffers] = useState<SelectedOffer[]>(
    startPricing.type === 'offers' ? positiveEntries(startPricing.offers).map(([offerId, quantity]) => ({ offerId, quantity })) : [],
  );
  const [addOns, setAddOns] = useState<AddOnLine[]>(
    startPricing.type === 'offers' ? positiveEntries(startPricing.addOns).map(([addonId, quantity]) => ({ addonId, quantity })) : [],
  );
  const [people, setPeople] = useState<number>(startPricing.type === 'spaces' ? startPricing.quantity : 1);
  const useOffers = course.offers.length > 0;
  const pricing: RequestPricing = useOffers
    ? { type: 'offers', offers: Object.fromEntries(offers.map((l) => [l.offerId, l.quantity])), addOns: Object.fromEntries(addOns.map((l) => [l.addonId, l.quantity])) }
    : { type: 'spaces', quantity: people };
  return { offers, setOffers, addOns, setAddOns, people, setPeople, useOffers, pricing };
}

function PeopleCounter({ people, onChange }: { people: number; onChange: (people: number) => void }) {
  return (
    <div className="stack">
      <h3>Spaces</h3>
      <ul className="qty-list">
        <QuantityRow id="people" name="Number of people" quantity={people} canRemove={people > 1} canAdd onChange={onChange} />
      </ul>
    </div>
  );
}

function LocationDetail({ locations, locationRef, onChange }: { locations: CheckoutLocation[]; locationRef: string | null; onChange: (locationRef: string | null) => void }) {
  const selectedLocation = useMemo(() => locations.find((l) => l._id === locationRef) ?? null, [locations, locationRef]);
  return (
    <div className="field radio-option__detail">
      {showLocationDropdown(locations.length) ? (
        <>
          <label htmlFor={fieldDomId('payload.delivery.location_ref')} className="visually-hidden">Select a location</label>
          <select
            id={fieldDomId('payload.delivery.location_ref')}
            value={locationRef ?? ''}
            onChange={(e) => onChange(pickLocation(locationRef, e.target.value))}
          >
            <option value="">Select a location</option>
            {locations.map((l) => <option key={l._id} value={l._id}>{l.formatted.replace(/\n/g, ', ')}</option>)}
          </select>
          {selectedLocation && <address className="small muted location-address">{selectedLocation.formatted}</address>}
        </>
      ) : (
        selectedLocation && <address className="small muted location-address">{selectedLocation.formatted}</address>
      )}
    </div>
  );
}

function DeliveryFieldset({ types, educatorName, locations, choice }: {
  types: RequestDeliveryType[]; educatorName: string; locations: CheckoutLocation[]; choice: ReturnType<typeof useDeliveryChoice>;
}) {
  const deliveryName = useId();
  const { deliveryType } = choice;
  return (
    <fieldset className="radio-group" id={fieldDomId('payload.delivery.type')} tabIndex={-1}>
      <legend>Delivery</legend>
      {types.map((type) => (
        <div key={type} className="radio-option">
          <label>
            <input type="radio" name={deliveryName} value={type} checked={deliveryType === type} onChange={() => choice.setDeliveryType(type)} />
            <span>{deliveryOptionLabel(type, educatorName)}</span>
          </label>
          {type === 'Educator travels' && deliveryType === type && (
            <div className="field radio-option__detail">
              <label htmlFor={fieldDomId('payload.delivery.address')}>Enter your address</label>
              <textarea id={fieldDomId('payload.delivery.address')} rows={3} autoComplete="street-address" value={choice.address} onChange={(e) => choice.setAddress(e.target.value)} required />
            </div>
          )}
          {type === 'Student travels' && deliveryType === type && (
            <LocationDetail locations={locations} locationRef={choice.locationRef} onChange={choice.setLocationRef} />
          )}
        </div>
      ))}
    </fieldset>
  );
}

function DurationFieldset({ options, durationId, onChange, pricesVisible, currency }: {
  options: DurationView[]; durationId: string | null; onChange: (durationId: string) => void; pricesVisible: boolean; currency: string;
}) {
  const durationName = useId();
  return (
    <fieldset className="radio-group" id={fieldDomId('payload.selectedDurationId')} tabIndex={-1}>
      <legend>Preferred Duration</legend>
      {options.map((option) => (
        <div key={option._id} className="radio-option">
          <label>
            <input type="radio" name={durationName} value={option._id} checked={durationId === option._id} onChange={() => onChange(option._id)} />
            <span className="duration-option">
              <span className="duration-option__text">{checkoutDurationText(option.duration)}</span>
              {option.label && <span className="duration-option__label">{option.label}</span>}
              {option.description && <span className="small muted">{option.description}</span>}
              {pricesVisible && typeof option.extra_cost === 'number' && option.extra_cost > 0 && (
                <span className="duration-option__extra">{formatDurationExtra(option.extra_cost, currency)}</span>
              )}
            </span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

export default function DeliveryStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const course = bootstrap.course!;
  const stored = stepStateOf(state.stepState, 'delivery');
  // What was chosen, else the server's defaults (spec 4).
  const start: DeliveryStart = { ...state.defaults?.delivery, ...stored };

  const locations = bootstrap.locations;
  const types = availableDeliveryTypes(
    {
      available_for_online_delivery: course.availableForOnlineDelivery,
      available_for_in_person_delivery: course.availableForInPersonDelivery,
      educator_travel_settings: course.educatorTravelSettings,
      student_travel_settings: course.studentTravelSettings,
    },
    locations.map((l) => l._id),
  );
  const choice = useDeliveryChoice(start, types, locations);
  const [durationId, setDurationId] = useState<string | null>(start.selectedDurationId ?? course.durationPricing[0]?._id ?? null);
  const { offers, addOns, people, useOffers, pricing, ...lines } = usePricingChoice(start, course);
  // An instant booking is paid at checkout, so it takes a promo code or gift card like the other paid flows.
  const [voucher, setVoucher] = useState<AppliedVoucher | null>(storedVoucher(stored));
  const instant = state.rules.instantBooking;
  useContinue({ enabled: true });

  const duration = course.durationPricing.find((d) => d._id === durationId) ?? null;
  const requestedSpaces = requestPricingSpaces(pricing, course.offers);
  useCostSummaryPreview({
    courseId: course.id,
    offers: useOffers ? offers : [],
    addOns: useOffers ? addOns : [],
    origin: state.origin,
    duration,
    requestedSpaces,
    voucherId: instant ? voucher?.id ?? null : null,
  }, [offers, addOns, people, durationId, course.id, state.origin, useOffers, duration, requestedSpaces, instant, voucher]);

  function submit() {
    void submitAction('request delivery configured', {
      selectedDurationId: durationId, delivery: choice.delivery(), pricing, ...(instant && voucher ? { appliedPromoCode: voucher.id } : {}),
    });
  }

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{STEP_LABELS.delivery}</StepHeading>
      {useOffers ? (
        <>
          <OffersList flow={state.flow} offers={course.offers} selected={offers} onChange={lines.setOffers} courseSpaces={course.spaces} currency={currency} pricesVisible={pricesVisible} heading="Offers" />
          <AddOnsList addOns={course.addOns} selected={addOns} onChange={lines.setAddOns} currency={currency} pricesVisible={pricesVisible} />
          {instant && (
            <PromoBox offers={course.offers} courseId={course.id} educatorId={state.educatorId} origin={state.origin} applied={voucher} onApplied={setVoucher} />
          )}
        </>
      ) : (
        <PeopleCounter people={people} onChange={lines.setPeople} />
      )}

      <DeliveryFieldset types={types} educatorName={bootstrap.educator!.name} locations={locations} choice={choice} />

      {showDurationChoice(course.durationPricing) && (
        <DurationFieldset options={course.durationPricing} durationId={durationId} onChange={setDurationId} pricesVisible={pricesVisible} currency={currency} />
      )}
    </StepForm>
  );
}
