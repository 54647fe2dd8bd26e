/**
 * Spec 2.14 "Spaces" ("Select Spaces", booking and bookingApplication) and "Order Offers" (order): offers with
 * +/- controls, "Add-ons", and the promo code box. Continue submits "pricing options picked" (or "order
 * pricing options picked") with {selectedOffers, selectedAddons, appliedPromoCode}. Defaults (spec 4): the
 * first offer gets 1 when on sale — the server's `defaults.price`.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $occurrences, loadOccurrences, refreshCostSummary, submitAction } from '../../../stores/checkout.ts';
import { STEP_LABELS, STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { costSummaryRequest } from '../../../domain/checkout/ui.ts';
import type { SelectedOffer } from '../../../domain/pricing.ts';
import { AddOnsList, OffersList, PromoBox, type AddOnLine, type AppliedVoucher } from './OffersPicker.tsx';
import { apiFetch } from '../../../stores/identity.ts';
import { QuantityRow, Spinner, StepForm, StepHeading, useContinue, useCurrency, usePricesVisible } from '../shared.tsx';

interface PriceState {
  offers?: SelectedOffer[];
  addOns?: AddOnLine[];
  voucherId?: string | null;
  giftCardId?: string | null;
  spacesRequested?: number;
}

export default function SpacesStep({ order }: { order: boolean }) {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const occurrences = useStore($occurrences);
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const course = bootstrap.course!;
  const stored = (state.stepState.price?.state ?? null) as PriceState | null;
  const defaults = (state.defaults?.price ?? {}) as PriceState;

  useEffect(() => {
    if (!order) void loadOccurrences();
  }, [order]);

  const occurrence = useMemo(() => (order ? null : occurrences?.find((o) => o._id === state.occurrenceId) ?? null), [order, occurrences, state.occurrenceId]);
  const offers = order ? course.offers : occurrence?.offers ?? [];
  const addOns = order ? course.addOns : occurrence?.add_ons ?? [];

  const [selected, setSelected] = useState<SelectedOffer[]>(stored?.offers ?? defaults.offers ?? []);
  const [addOnLines, setAddOnLines] = useState<AddOnLine[]>(stored?.addOns ?? []);
  const [spaces, setSpaces] = useState<number>(stored?.spacesRequested ?? 1);
  // A gift card chosen before comes back by its id (the server knows it as this checkout's card).
  const [voucher, setVoucher] = useState<AppliedVoucher | null>(stored?.voucherId || stored?.giftCardId ? { id: (stored.voucherId || stored.giftCardId)!, code: '' } : null);
  // A member with credits for this course may pay one space with a credit (docs/gifts-and-memberships.md).
  const [member, setMember] = useState<{ creditsLeft: number; planName: string } | null>(null);
  const [useCredit, setUseCredit] = useState<boolean>(!!(stored as { useCredit?: boolean } | null)?.useCredit);
  useEffect(() => {
    void apiFetch(`/memberships/benefits?courseId=${encodeURIComponent(course.id)}`)
      .then((res) => (res.ok ? res.json() : { member: null }))
      .then((body: { member: { creditsLeft: number; planName: string } | null }) => {
        setMember(body.member);
        if (body.member && body.member.creditsLeft > 0 && new URL(window.location.href).searchParams.get('credit') === '1') setUseCredit(true);
      })
      .catch(() => setMember(null));
  }, [course.id]);
  const loading = !order && !occurrence;
  useContinue(loading ? { enabled: false } : { enabled: true });

  useEffect(() => {
    if (loading) return;
    const timer = window.setTimeout(() => {
      void refreshCostSummary(costSummaryRequest({
        courseId: course.id,
        occurrenceId: order ? null : state.occurrenceId,
        voucherId: voucher?.id ?? null,
        offers: selected,
        addOns: addOnLines,
        origin: state.origin,
        // The preview answers with the member's prices (the signed-in learner's), and the credit when it is used.
        useMembershipCredit: useCredit && !!member && member.creditsLeft > 0,
      }));
    }, 250);
    return () => window.clearTimeout(timer);
  }, [loading, selected, addOnLines, voucher, course.id, order, state.occurrenceId, state.origin, useCredit, member]);

  function submit() {
    const payload: Record<string, unknown> = {
      selectedOffers: selected,
      selectedAddons: addOnLines,
      appliedPromoCode: voucher?.id ?? null,
    };
    if (useCredit && member && member.creditsLeft > 0) payload.useMembershipCredit = true;
    if (offers.length === 0) payload.spacesRequested = spaces;
    void submitAction(order ? 'order pricing options picked' : 'pricing options picked', payload);
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
          {member && member.creditsLeft > 0 && (
            <label className="checkbox" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
              <input type="checkbox" checked={useCredit} onChange={(e) => setUseCredit(e.target.checked)} />
              <span>Use 1 credit ({member.planName}: {member.creditsLeft} left)</span>
            </label>
          )}
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
