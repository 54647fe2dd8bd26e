/**
 * Spec 2.14 "Request Delivery": offers (or "Spaces" with a "Number of people" counter), the "Delivery" radio
 * (Online; "In-person • I will host {educator}" with "Enter your address"; "In-person • I will travel to
 * {educator}" with "Select a location" or the single location's address) and the "Preferred Duration" radio
 * (hidden with one option). Continue submits "request delivery configured" {selectedDurationId, delivery, pricing}.
 * Defaults (spec 4) come from the server's `defaults.delivery`.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, refreshCostSummary, submitAction } from '../../../stores/checkout.ts';
import { STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { deliveryOptionLabel } from '../../../domain/checkout/messages.ts';
import {
  availableDeliveryTypes, pickLocation, showDurationChoice, showLocationDropdown, type RequestDelivery, type RequestDeliveryType, type RequestPricing,
} from '../../../domain/checkout/defaults.ts';
import { checkoutDurationText } from '../../../domain/time.ts';
import { formatDurationExtra } from '../../../domain/money.ts';
import { costSummaryRequest, fieldDomId } from '../../../domain/checkout/ui.ts';
import type { SelectedOffer } from '../../../domain/pricing.ts';
import { AddOnsList, OffersList, PromoBox, type AddOnLine, type AppliedVoucher } from './OffersPicker.tsx';
import { QuantityRow, StepForm, StepHeading, useContinue, useCurrency, usePricesVisible } from '../shared.tsx';

interface DeliveryState {
  selectedDurationId?: string | null;
  delivery?: RequestDelivery | null;
  pricing?: RequestPricing | null;
  voucherId?: string | null;
  giftCardId?: string | null;
}

function toLines(map: Record<string, number> | undefined): SelectedOffer[] {
  return Object.entries(map ?? {}).filter(([, q]) => q > 0).map(([offerId, quantity]) => ({ offerId, quantity }));
}

export default function DeliveryStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const course = bootstrap.course!;
  const educatorName = bootstrap.educator!.name;
  const stored = (state.stepState.delivery?.state ?? null) as DeliveryState | null;
  const defaults = (state.defaults?.delivery ?? {}) as DeliveryState;
  const start = { ...defaults, ...(stored ?? {}) };

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
  const [deliveryType, setDeliveryType] = useState<RequestDeliveryType>(start.delivery?.type ?? types[0] ?? 'Online');
  const [address, setAddress] = useState(start.delivery?.type === 'Educator travels' ? start.delivery.address : '');
  const [locationRef, setLocationRef] = useState<string | null>(
    start.delivery?.type === 'Student travels' ? start.delivery.location_ref : locations[0]?._id ?? null,
  );
  const [durationId, setDurationId] = useState<string | null>(start.selectedDurationId ?? course.durationPricing[0]?._id ?? null);
  const startPricing = start.pricing ?? (course.offers.length > 0 ? { type: 'offers' as const, offers: {}, addOns: {} } : { type: 'spaces' as const, quantity: 1 });
  const [offers, setOffers] = useState<SelectedOffer[]>(startPricing.type === 'offers' ? toLines(startPricing.offers) : []);
  const [addOns, setAddOns] = useState<AddOnLine[]>(
    startPricing.type === 'offers' ? Object.entries(startPricing.addOns ?? {}).filter(([, q]) => q > 0).map(([addonId, quantity]) => ({ addonId, quantity })) : [],
  );
  const [people, setPeople] = useState<number>(startPricing.type === 'spaces' ? startPricing.quantity : 1);
  const useOffers = course.offers.length > 0;
  // An instant booking is paid at checkout, so it takes a promo code or gift card like the other paid flows (a gift
  // card chosen before comes back by its id).
  const [voucher, setVoucher] = useState<AppliedVoucher | null>(stored?.voucherId || stored?.giftCardId ? { id: (stored.voucherId || stored.giftCardId)!, code: '' } : null);
  const instant = state.rules.instantBooking;
  useContinue({ enabled: true });

  const duration = course.durationPricing.find((d) => d._id === durationId) ?? null;
  const requestedSpaces = useOffers ? offers.reduce((sum, l) => sum + l.quantity * (course.offers.find((o) => o._id === l.offerId)?.spaces ?? 1), 0) : people;

  useEffect(() => {
    const timer = window.setTimeout(() => {
      void refreshCostSummary(costSummaryRequest({
        courseId: course.id,
        offers: useOffers ? offers : [],
        addOns: useOffers ? addOns : [],
        origin: state.origin,
        duration,
        requestedSpaces,
        voucherId: instant ? voucher?.id ?? null : null,
      }));
    }, 250);
    return () => window.clearTimeout(timer);
  }, [offers, addOns, people, durationId, course.id, state.origin, useOffers, duration, requestedSpaces, instant, voucher]);

  const deliveryName = useId();
  const durationName = useId();
  const selectedLocation = useMemo(() => locations.find((l) => l._id === locationRef) ?? null, [locations, locationRef]);

  function submit() {
    let delivery: RequestDelivery;
    if (deliveryType === 'Online') delivery = { type: 'Online' };
    else if (deliveryType === 'Educator travels') delivery = { type: 'Educator travels', address };
    else delivery = { type: 'Student travels', location_ref: locationRef ?? '' };
    const pricing: RequestPricing = useOffers
      ? { type: 'offers', offers: Object.fromEntries(offers.map((l) => [l.offerId, l.quantity])), addOns: Object.fromEntries(addOns.map((l) => [l.addonId, l.quantity])) }
      : { type: 'spaces', quantity: people };
    void submitAction('request delivery configured', {
      selectedDurationId: durationId, delivery, pricing, ...(instant && voucher ? { appliedPromoCode: voucher.id } : {}),
    });
  }

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{STEP_LABELS.delivery}</StepHeading>
      {useOffers ? (
        <>
          <OffersList flow="request" offers={course.offers} selected={offers} onChange={setOffers} courseSpaces={course.spaces} currency={currency} pricesVisible={pricesVisible} heading="Offers" />
          <AddOnsList addOns={course.addOns} selected={addOns} onChange={setAddOns} currency={currency} pricesVisible={pricesVisible} />
          {instant && (
            <PromoBox offers={course.offers} courseId={course.id} educatorId={state.educatorId} origin={state.origin} applied={voucher} onApplied={setVoucher} />
          )}
        </>
      ) : (
        <div className="stack">
          <h3>Spaces</h3>
          <ul className="qty-list">
            <QuantityRow id="people" name="Number of people" quantity={people} canRemove={people > 1} canAdd onChange={setPeople} />
          </ul>
        </div>
      )}

      <fieldset className="radio-group" id={fieldDomId('payload.delivery.type')} tabIndex={-1}>
        <legend>Delivery</legend>
        {types.map((type) => (
          <div key={type} className="radio-option">
            <label>
              <input type="radio" name={deliveryName} value={type} checked={deliveryType === type} onChange={() => setDeliveryType(type)} />
              <span>{deliveryOptionLabel(type, educatorName)}</span>
            </label>
            {type === 'Educator travels' && deliveryType === type && (
              <div className="field radio-option__detail">
                <label htmlFor={fieldDomId('payload.delivery.address')}>Enter your address</label>
                <textarea id={fieldDomId('payload.delivery.address')} rows={3} autoComplete="street-address" value={address} onChange={(e) => setAddress(e.target.value)} required />
              </div>
            )}
            {type === 'Student travels' && deliveryType === type && (
              <div className="field radio-option__detail">
                {showLocationDropdown(locations.length) ? (
                  <>
                    <label htmlFor={fieldDomId('payload.delivery.location_ref')} className="visually-hidden">Select a location</label>
                    <select
                      id={fieldDomId('payload.delivery.location_ref')}
                      value={locationRef ?? ''}
                      onChange={(e) => setLocationRef(pickLocation(locationRef, e.target.value))}
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
            )}
          </div>
        ))}
      </fieldset>

      {showDurationChoice(course.durationPricing) && (
        <fieldset className="radio-group" id={fieldDomId('payload.selectedDurationId')} tabIndex={-1}>
          <legend>Preferred Duration</legend>
          {course.durationPricing.map((option) => (
            <div key={option._id} className="radio-option">
              <label>
                <input type="radio" name={durationName} value={option._id} checked={durationId === option._id} onChange={() => setDurationId(option._id)} />
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
      )}
    </StepForm>
  );
}
