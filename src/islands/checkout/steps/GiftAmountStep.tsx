/**
 * The gift voucher's Amount step: the educator's fixed amounts as choices and, when the educator allows it, a custom
 * amount in pounds between the minimum and maximum ("gift amount picked", amount in pence). The server checks the
 * amount against the same settings (src/domain/gifts.ts).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, setCostSummary, submitAction } from '../../../stores/checkout.ts';
import { giftAmountAllowed, giftVoucherCostSummary } from '../../../domain/gifts.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { formatPence } from '../../../domain/money.ts';
import { checkoutApi, type GiftVoucherOffer } from '../api.ts';
import { Spinner, StepForm, StepHeading, useContinue } from '../shared.tsx';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';

const CUSTOM = 'custom';

export default function GiftAmountStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const [offer, setOffer] = useState<GiftVoucherOffer | null>(null);
  const stored = stepStateOf(state.stepState, 'giftAmount')?.amount ?? null;
  const [choice, setChoice] = useState<string>(stored !== null ? String(stored) : '');
  const [custom, setCustom] = useState('');

  useEffect(() => {
    void checkoutApi.giftVouchers(bootstrap.educator!.id).then((o) => {
      setOffer(o);
      if (stored !== null && !o.fixedAmounts.includes(stored)) {
        setChoice(CUSTOM);
        setCustom((stored / 100).toFixed(2).replace(/\.00$/, ''));
      } else if (stored === null && o.fixedAmounts.length) setChoice(String(o.fixedAmounts[0]));
      else if (stored === null) setChoice(CUSTOM);
    }).catch(() => setOffer({ vouchers_app_installed: false, fixedAmounts: [], customMin: null, customMax: null, expiryMonths: 12, designColour: null, currency: 'GBP' }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const customPence = Math.round(Number(custom.replace(/[£,\s]/g, '')) * 100);
  const amount = choice === CUSTOM ? (Number.isFinite(customPence) && customPence > 0 ? customPence : null) : Number(choice) || null;
  useContinue({ enabled: amount !== null });
  // The summary shows the price as the buyer chooses (before Continue), as the checkout will record it.
  const allowed = offer !== null && amount !== null && giftAmountAllowed({ enabled: true, fixedAmounts: offer.fixedAmounts, customMin: offer.customMin, customMax: offer.customMax, expiryMonths: offer.expiryMonths, designColour: null }, amount);
  useEffect(() => {
    if (offer && allowed && amount !== null && offer.fees_absorbed !== undefined) setCostSummary(giftVoucherCostSummary(amount, offer.fees_absorbed, offer.currency));
  }, [offer, allowed, amount]);
  if (!offer) return <Spinner label="Loading gift voucher amounts" />;
  const hasCustom = offer.customMin !== null && offer.customMax !== null;
  const customId = fieldDomId('payload.amount');

  return (
    <StepForm onSubmit={() => amount !== null && void submitAction('gift amount picked', { amount })}>
      <StepHeading>{STEP_TITLES.giftAmount}</StepHeading>
      <p>A {bootstrap.educator!.name} gift voucher, valid for {offer.expiryMonths} months, to spend on any of their courses.</p>
      <fieldset className="field">
        <legend>Amount</legend>
        <div className="chips" role="radiogroup">
          {offer.fixedAmounts.map((a) => (
            <label key={a} className="chip">
              <input type="radio" name="gift-amount" value={String(a)} checked={choice === String(a)} onChange={() => setChoice(String(a))} />
              {' '}{formatPence(a)}
            </label>
          ))}
          {hasCustom && (
            <label className="chip">
              <input type="radio" name="gift-amount" value={CUSTOM} checked={choice === CUSTOM} onChange={() => setChoice(CUSTOM)} />
              {' '}Another amount
            </label>
          )}
        </div>
      </fieldset>
      {hasCustom && choice === CUSTOM && (
        <div className="field">
          <label htmlFor={customId}>Amount in pounds ({formatPence(offer.customMin!)} to {formatPence(offer.customMax!)})</label>
          <input id={customId} inputMode="decimal" value={custom} onChange={(e) => setCustom(e.target.value)} />
        </div>
      )}
    </StepForm>
  );
}
