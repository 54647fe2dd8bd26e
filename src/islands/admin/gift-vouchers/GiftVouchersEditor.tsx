/**
 * The Gift vouchers screen (/gift-vouchers): whether the educator sells gift vouchers, the amounts (fixed ones and/or
 * a custom range), how long they last and the card's colour. On sale only where it can be paid for (card or wallet):
 * the screen says why when it is switched on but not on sale.
 */
import { useEffect, useState } from 'react';
import PublishStatus from '../PublishStatus.tsx';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { penceToPounds, poundsToPence } from '../../../domain/admin/catalogue-input.ts';
import { MAX_EXPIRY_MONTHS, MIN_EXPIRY_MONTHS } from '../../../domain/gifts.ts';
import { adminPath } from '../../../domain/admin-nav.ts';
import { CheckboxField, Notice, ProblemAlert, TextField, educatorPath, useAdminData, useSave } from '../catalogue/kit.tsx';

interface Settings { enabled: boolean; fixedAmounts: number[]; customMin: number | null; customMax: number | null; expiryMonths: number; designColour: string | null }
interface GiftData { settings: Settings; revision: number; vouchers_app_installed: boolean; enabled: boolean; payable: boolean; cardsSold: number }
interface Draft { enabled: boolean; fixedAmounts: string; customMin: string; customMax: string; expiryMonths: string; designColour: string }

function draftOf(s: Settings): Draft {
  return {
    enabled: s.enabled, fixedAmounts: s.fixedAmounts.map(penceToPounds).join(', '), customMin: penceToPounds(s.customMin), customMax: penceToPounds(s.customMax),
    expiryMonths: String(s.expiryMonths), designColour: s.designColour ?? '',
  };
}
const pence = (v: string) => (v.trim() === '' ? null : poundsToPence(v) ?? v);

export default function GiftVouchersEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<GiftData>(educatorPath(educatorId, '/gift-vouchers'));
  const save = useSave();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (data && !dirty) setDraft(draftOf(data.settings));
  }, [data, dirty]);
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setDirty(true);
  };

  async function submit() {
    if (!draft || !data) return;
    const amounts = draft.fixedAmounts.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
    const body = {
      revision: data.revision, enabled: draft.enabled, fixedAmounts: amounts.map((a) => poundsToPence(a) ?? a), customMin: pence(draft.customMin), customMax: pence(draft.customMax),
      expiryMonths: Number.isFinite(Number(draft.expiryMonths)) ? Number(draft.expiryMonths) : draft.expiryMonths, designColour: draft.designColour.trim() || null,
    };
    const res = await save.run<GiftData>('PUT', educatorPath(educatorId, '/gift-vouchers'), body);
    if (res) {
      setNotice(res.vouchers_app_installed ? 'Saved. Gift vouchers are on sale.' : 'Saved. Gift vouchers are not on sale.');
      setDirty(false);
      await reload();
    }
  }

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data || !draft) return <p role="status">Loading gift vouchers…</p>;
  const amountError = Object.entries(save.errors).find(([k]) => k.startsWith('fixedAmounts.'));
  const errors = { ...save.errors, fixedAmounts: save.errors.fixedAmounts ?? (amountError ? `amount ${Number(amountError[0].split('.')[1]) + 1} ${amountError[1]}` : '') };
  if (!errors.fixedAmounts) delete (errors as Record<string, string>).fixedAmounts;
  return (
    <div data-testid="gift-vouchers-editor">
      <p className="cat-muted">Learners buy a gift voucher for someone else, who spends it on your courses at checkout.</p>
      <div className="admin-status" data-testid="gift-status">
        {data.vouchers_app_installed ? <p><strong>On sale.</strong> {data.cardsSold} sold so far.</p>
          : data.enabled && !data.payable ? <p><strong>Switched on, but not on sale:</strong> gift vouchers are paid by card or wallet, and your <a href={adminPath('/payments', educatorId)}>payment options</a> take neither.</p>
            : <p><strong>Not on sale.</strong> {data.cardsSold ? `${data.cardsSold} sold before.` : ''}</p>}
      </div>
      <Notice text={notice} />
      <ProblemAlert problem={save.problem} onReload={() => { setDirty(false); void reload(); }} />
      <PublishStatus educatorId={educatorId} savedAt={save.savedAt} />
      <section className="cat-panel" aria-labelledby="gift-heading">
        <h2 id="gift-heading">Settings</h2>
        <form noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
          <CheckboxField label="Sell gift vouchers" name="enabled" checked={draft.enabled} onChange={(v) => set({ enabled: v })} errors={errors} />
          <TextField label="Fixed amounts (£, separated by commas)" name="fixedAmounts" value={draft.fixedAmounts} onChange={(v) => set({ fixedAmounts: v })} errors={errors} hint="Up to 8 amounts from £5 to £1,000, e.g. 25, 50, 100." />
          <div className="cat-grid">
            <TextField label="Custom amount from (£, optional)" name="customMin" inputMode="decimal" value={draft.customMin} onChange={(v) => set({ customMin: v })} errors={errors} />
            <TextField label="Custom amount up to (£, optional)" name="customMax" inputMode="decimal" value={draft.customMax} onChange={(v) => set({ customMax: v })} errors={errors} />
            <TextField label="Lasts (months)" name="expiryMonths" type="number" inputMode="numeric" value={draft.expiryMonths} onChange={(v) => set({ expiryMonths: v })} errors={errors} hint={`${MIN_EXPIRY_MONTHS} to ${MAX_EXPIRY_MONTHS} months.`} />
            <TextField label="Card colour (optional)" name="designColour" value={draft.designColour} onChange={(v) => set({ designColour: v })} errors={errors} hint="A colour code such as #224466." />
          </div>
          <button type="submit" className="btn" disabled={save.busy}>{save.busy ? 'Saving…' : 'Save gift vouchers'}</button>
        </form>
      </section>
    </div>
  );
}
