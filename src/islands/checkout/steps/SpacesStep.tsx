/**
 * Spec 2.14 "Spaces" ("Select Spaces", booking and bookingApplication) and "Order Offers" (order): offers with
 * +/- controls, "Add-ons", and the promo code box. Continue submits "pricing options picked" (or "order
 * pricing options picked") with {selectedOffers, selectedAddons, appliedPromoCode}. Defaults (spec 4): the
 * first offer gets 1 when on sale — the server's `defaults.price`.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $occurrences, loadOccurrences, submitAction } from '../../../stores/checkout.ts';
import { PRICING_ACTIONS, STEP_LABELS, STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { stepStateOf, type PriceState } from '../../../domain/checkout/step-state.ts';
import type { SelectedOffer } from '../../../domain/pricing.ts';
import { AddOnsList, OffersList, PromoBox, storedVoucher, type AddOnLine, type AppliedVoucher } from './OffersPicker.tsx';
import { apiFetch } from '../../../stores/identity.ts';
import type { CheckoutCourse } from '../types.ts';
import { QuantityRow, Spinner, StepForm, StepHeading, useContinue, useCostSummaryPreview, useCurrency, usePricesVisible } from '../shared.tsx';

type Member = { creditsLeft: number; planName: string };

/**
 * A member with credits for this course may pay one space with a credit (docs/gifts-and-memberships.md): the
 * learner's membership for the course, and whether a credit is used (asked for before, or by ?credit=1).
 */
function useMembershipCredit(courseId: string, usedBefore: boolean) {
  const [member, setMember] = useState<Member | null>(null);
  const [useCredit, setUseCredit] = useState<boolean>(usedBefore);
  useEffect(() => {
    void apiFetch(`/memberships/benefits?courseId=${encodeURIComponent(courseId)}`)
      .then((res) => (res.ok ? res.json() : { member: null }))
      .then((body: { member: Member | null }) => {
        setMember(body.member);
        if (body.member && body.member.creditsLeft > 0 && new URL(window.location.href).searchParams.get('credit') === '1') setUseCredit(true);
      })
      .catch(() => setMember(null));
  }, [courseId]);
  const creditUsed = useCredit && !!member && member.creditsLeft > 0;
  return { member, useCredit, setUseCredit, creditUsed };
}

function CreditCheckbox({ member, checked, onChange }: { member: Member | null; checked: boolean; onChange: (checked: boolean) => void }) {
  if (!member || !(member.creditsLeft > 0)) return null;
  return (
    <label className="checkbox" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>Use 1 credit ({member.planName}: {member.creditsLeft} left)</span>
    </label>
  );
}

/** What is on sale: the occurrence's offers and add-ons (loaded here; null until then), or the course's for an order. */
function useOffersOnSale(order: boolean, course: CheckoutCourse, occurrenceId: string | null) {
  const occurrences = useStore($occurrences);
  useEffect(() => {
    if (!order) void loadOccurrences();
  }, [order]);

  const occurrence = useMemo(() => (order ? null : occurrences?.find((o) => o._id === occurrenceId) ?? null), [order, occurrences, occurrenceId]);
  const offers = order ? course.offers : occurrence?.offers ?? [];
  const addOns = order ? course.addOns : occurrence?.add_ons ?? [];
  return { occurrence, offers, addOns };
}

/** The offers, add-ons, spaces and voucher the learner picks: what was picked before, else the server's default offers. */
function usePriceChoice(stored: PriceState | null, defaultOffers: SelectedOffer[] | undefined) {
  const [selected, setSelected] = useState<SelectedOffer[]>(stored?.offers ?? defaultOffers ?? []);
  const [addOnLines, setAddOnLines] = useState<AddOnLine[]>(stored?.addOns ?? []);
  const [spaces, setSpaces] = useState<number>(stored?.spacesRequested ?? 1);
  const [voucher, setVoucher] = useState<AppliedVoucher | null>(storedVoucher(stored));
  return { selected, setSelected, addOnLines, setAddOnLines, spaces, setSpaces, voucher, setVoucher };
}

/** `step`: Spaces (booking, bookingApplication: the occurrence's offers) or Offers (order: the course's). */
export default function SpacesStep({ step }: { step: 'spaces' | 'offers' }) {
  const order = step === 'offers';
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const course = bootstrap.course!;
  const stored = stepStateOf(state.stepState, 'price');

  const { occurrence, offers, addOns } = useOffersOnSale(order, course, state.occurrenceId);

  const { selected, setSelected, addOnLines, setAddOnLines, spaces, setSpaces, voucher, setVoucher } = usePriceChoice(stored, state.defaults?.price?.offers);
  const { member, useCredit, setUseCredit, creditUsed } = useMembershipCredit(course.id, !!stored?.useCredit);
  const loading = !order && !occurrence;
  useContinue(loading ? { enabled: false } : { enabled: true });

  useCostSummaryPreview(loading ? null : {
    courseId: course.id,
    occurrenceId: order ? null : state.occurrenceId,
    voucherId: voucher?.id ?? null,
    offers: selected,
    addOns: addOnLines,
    origin: state.origin,
    // The preview answers with the member's prices (the signed-in learner's), and the credit when it is used.
    useMembershipCredit: creditUsed,
  }, [loading, selected, addOnLines, voucher, course.id, order, state.occurrenceId, state.origin, useCredit, member]);

  function submit() {
    const payload: Record<string, unknown> = {
      selectedOffers: selected,
      selectedAddons: addOnLines,
      appliedPromoCode: voucher?.id ?? null,
    };
    if (creditUsed) payload.useMembershipCredit = true;
    if (offers.length === 0) payload.spacesRequested = spaces;
    void submitAction(PRICING_ACTIONS[step], payload);
  }

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{order ? STEP_LABELS.offers : STEP_TITLES.spaces}</StepHeading>
      {loading ? (
        <Spinner label="Loading spaces" />
      ) : (
        <>
          {offers.length > 0 ? (
            <OffersList
              flow={state.flow}
              offers={offers}
              selected={selected}
              onChange={setSelected}
              occurrence={occurrence}
              courseSpaces={course.spaces}
              currency={currency}
              pricesVisible={pricesVisible}
            />
          ) : (
            <ul className="qty-list">
              <QuantityRow
                id="spaces"
                name="Number of people"
                quantity={spaces}
                canRemove={spaces > 1}
                canAdd
                onChange={setSpaces}
              />
            </ul>
          )}
          <CreditCheckbox member={member} checked={useCredit} onChange={setUseCredit} />
          <AddOnsList addOns={addOns} selected={addOnLines} onChange={setAddOnLines} currency={currency} pricesVisible={pricesVisible} />
          <PromoBox
            offers={offers}
            courseId={course.id}
            educatorId={state.educatorId}
            origin={state.origin}
            applied={voucher}
            onApplied={setVoucher}
          />
        </>
      )}
    </StepForm>
  );
}
