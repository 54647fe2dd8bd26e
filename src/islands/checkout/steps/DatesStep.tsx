/**
 * The Dates step, as the flow's rules name it (FlowRules.dates):
 * - 'request': calendar-based ("Select a Date & Time", spec 4 "Request flow rules" — the server's
 *   rules.calendarBased) or "Preferred Dates" ("request preferred dates selected").
 * - 'preferred dates with offers' (dateBookingRequest, groupBookingRequest): Preferred Dates plus Offers and Add-ons
 *   ("dates and prices selected" {selectedDates, selectedOffers, selectedAddons}).
 */
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, submitAction } from '../../../stores/checkout.ts';
import { requestDatesTitle, STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { stepStateOf, type DatesState } from '../../../domain/checkout/step-state.ts';
import { flowRules } from '../../../domain/checkout/flows.ts';
import type { SelectedOffer } from '../../../domain/pricing.ts';
import CalendarDates from './Calendar.tsx';
import PreferredDates from './PreferredDates.tsx';
import { AddOnsList, OffersList, type AddOnLine } from './OffersPicker.tsx';
import { StepForm, StepHeading, useContinue, useCostSummaryPreview, useCurrency, usePricesVisible } from '../shared.tsx';

function storedDates(state: DatesState | null): string[] {
  const dates = (state?.preferredDates ?? []).map((d) => d.slice(0, 10));
  return dates.length > 0 ? dates : [''];
}

function RequestPreferredDates() {
  const state = useStore($checkout)!;
  const stored = stepStateOf(state.stepState, 'dates');
  const [dates, setDates] = useState<string[]>(storedDates(stored));
  useContinue({ enabled: true });
  return (
    <StepForm onSubmit={() => void submitAction('request preferred dates selected', { preferredDates: dates })}>
      <StepHeading>{requestDatesTitle(false)}</StepHeading>
      <PreferredDates dates={dates} onChange={setDates} path="payload.preferredDates" legendHidden />
    </StepForm>
  );
}

function GroupDates() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const course = bootstrap.course!;
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const stored = stepStateOf(state.stepState, 'dates');
  const [dates, setDates] = useState<string[]>(storedDates(stored));
  const [offers, setOffers] = useState<SelectedOffer[]>(stored?.offers ?? state.defaults?.price?.offers ?? []);
  const [addOns, setAddOns] = useState<AddOnLine[]>(stored?.addOns ?? []);
  useContinue({ enabled: true });

  useCostSummaryPreview({ courseId: course.id, offers, addOns, origin: state.origin }, [offers, addOns, course.id, state.origin]);

  return (
    <StepForm onSubmit={() => void submitAction('dates and prices selected', { selectedDates: dates, selectedOffers: offers, selectedAddons: addOns })}>
      <StepHeading>{STEP_LABELS.dates}</StepHeading>
      <PreferredDates dates={dates} onChange={setDates} path="payload.selectedDates" />
      {course.offers.length > 0 && (
        <OffersList flow={state.flow} offers={course.offers} selected={offers} onChange={setOffers} courseSpaces={course.spaces} currency={currency} pricesVisible={pricesVisible} heading="Offers" />
      )}
      <AddOnsList addOns={course.addOns} selected={addOns} onChange={setAddOns} currency={currency} pricesVisible={pricesVisible} />
    </StepForm>
  );
}

export default function DatesStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  if (flowRules(state.flow).dates !== 'request') return <GroupDates />;
  if (state.rules?.calendarBased) {
    const delivery = stepStateOf(state.stepState, 'delivery');
    const option = bootstrap.course!.durationPricing.find((d) => d._id === delivery?.selectedDurationId);
    const minutes = option?.duration ?? bootstrap.course!.courseDuration ?? null;
    return <CalendarDates durationMinutes={minutes} />;
  }
  return <RequestPreferredDates />;
}
