/**
 * The Promo codes screen (/promo-codes): the codes learners type at "Apply promo code or gift card", with their uses
 * and status; add, edit (the limit never below the uses), remove (refused once used: set an expiry instead). Rules:
 * src/domain/admin/promo-codes.ts, the checkout's own.
 */
import { penceToPounds, poundsToPence } from '../../../domain/admin/catalogue-input.ts';
import { endOfLondonDay } from '../../../domain/admin/promo-codes.ts';
import { addLocalDays, isoDate, localDate } from '../../../domain/zone.ts';
import { ProblemAlert, SelectField, TextField, educatorPath, useAdminData, useDraftEditor, useSave, type FieldErrors } from '../catalogue/kit.tsx';
import { ItemActions, ListScreenStatus, SaveOrCancel, useListItemSaving } from '../collections/listEditing.tsx';

interface PromoView { id: string; code: string; kind: 'percent' | 'fixed'; amount: number; maxUses: number | null; uses: number; expiresAt: number | null; courseId: string | null; courseName: string | null; revision: number; status: string; discount: string }
interface Course { id: string; name: string }
interface Draft { id: string | null; revision: number; code: string; kind: 'percent' | 'fixed'; amount: string; maxUses: string; validUntil: string; courseId: string }

/** The London day a code is last valid on (it expires when that day ends). */
const lastDay = (expiresAt: number | null) => (expiresAt === null ? '' : isoDate(localDate(addLocalDays(expiresAt, -1))));

const EMPTY: Draft = { id: null, revision: 0, code: '', kind: 'percent', amount: '10', maxUses: '', validUntil: '', courseId: '' };

const draftOf = (p: PromoView): Draft => ({
  id: p.id, revision: p.revision, code: p.code, kind: p.kind, amount: p.kind === 'fixed' ? penceToPounds(p.amount) : String(p.amount), maxUses: p.maxUses === null ? '' : String(p.maxUses), validUntil: lastDay(p.expiresAt), courseId: p.courseId ?? '',
});

/** The draft as the API takes it: numbers where they read as numbers, else the text as typed (for the server's message). */
function bodyOf(draft: Draft) {
  const amount = draft.kind === 'fixed' ? poundsToPence(draft.amount) ?? draft.amount : Number.isFinite(Number(draft.amount)) && draft.amount.trim() ? Number(draft.amount) : draft.amount;
  return {
    code: draft.code, kind: draft.kind, amount,
    maxUses: draft.maxUses.trim() === '' ? null : Number.isFinite(Number(draft.maxUses)) ? Number(draft.maxUses) : draft.maxUses,
    expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(draft.validUntil) ? endOfLondonDay(draft.validUntil) : null,
    courseId: draft.courseId || null,
  };
}

export default function PromoCodesEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<{ promoCodes: PromoView[]; courses: Course[] }>(educatorPath(educatorId, '/promo-codes'));
  const save = useSave();
  const editor = useDraftEditor<Draft>(save);
  const { draft, setDraft, notice, confirming, setConfirming, set, open } = editor;
  const items = useListItemSaving({ educatorId, path: '/promo-codes', save, editor, reload });

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading promo codes…</p>;
  return (
    <div data-testid="promo-codes-editor">
      <p className="cat-muted">Codes learners type at checkout for money off a course.</p>
      <ListScreenStatus educatorId={educatorId} notice={notice} save={save} editing={!!draft} onReload={() => void reload()} />
      {draft ? (
        <section className="cat-panel" aria-labelledby="promo-heading">
          <h2 id="promo-heading">{draft.id ? `Edit ${draft.code}` : 'New promo code'}</h2>
          <ProblemAlert problem={save.problem} onReload={() => void reload().then(() => setDraft(null))} />
          <form noValidate onSubmit={(e) => { e.preventDefault(); void items.saveDraft<PromoView>(draft, bodyOf(draft), (res) => `Saved ${res.code}: ${res.discount}.`); }}>
            <PromoFields draft={draft} set={set} errors={save.errors} courses={data.courses} />
            <SaveOrCancel busy={save.busy} label="Save promo code" onCancel={items.cancel} />
          </form>
        </section>
      ) : (
        <p><button type="button" className="btn" onClick={() => open(EMPTY)}>New promo code</button></p>
      )}
      <section aria-labelledby="promos-heading">
        <h2 id="promos-heading">Your promo codes</h2>
        {data.promoCodes.length === 0 ? <p className="admin-empty">No promo codes yet.</p> : (
          <ul className="cat-list">
            {data.promoCodes.map((p) => (
              <li key={p.id}>
                <PromoSummary p={p} />
                <ItemActions title={p.code} confirming={confirming === p.id} onEdit={() => open(draftOf(p))} onAskRemove={() => setConfirming(p.id)}
                  onRemove={() => void items.removeItem(p, `Removed ${p.code}.`)} onKeep={() => setConfirming(null)} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The fields of a promo code's edit form. */
function PromoFields({ draft, set, errors, courses }: { draft: Draft; set(patch: Partial<Draft>): void; errors: FieldErrors; courses: Course[] }) {
  return (
    <div className="cat-grid">
      <TextField label="Code" name="code" value={draft.code} onChange={(v) => set({ code: v })} errors={errors} hint="Letters, digits, - and _. Learners may type it in any case." />
      <SelectField label="Discount" name="kind" value={draft.kind} onChange={(v) => set({ kind: v as Draft['kind'] })} options={[{ value: 'percent', label: 'A percentage off' }, { value: 'fixed', label: 'An amount off (£)' }]} errors={errors} />
      <TextField label={draft.kind === 'percent' ? 'Percentage off' : 'Amount off (£)'} name="amount" inputMode="decimal" value={draft.amount} onChange={(v) => set({ amount: v })} errors={errors} />
      <TextField label="Most uses (optional)" name="maxUses" type="number" inputMode="numeric" value={draft.maxUses} onChange={(v) => set({ maxUses: v })} errors={errors} hint="Empty: unlimited." />
      <TextField label="Valid until (optional)" name="expiresAt" type="date" value={draft.validUntil} onChange={(v) => set({ validUntil: v })} errors={errors} hint="Valid to the end of that day, London time." />
      <SelectField label="For" name="courseId" value={draft.courseId} onChange={(v) => set({ courseId: v })} options={[{ value: '', label: 'Every course' }, ...courses.map((c) => ({ value: c.id, label: c.name }))]} errors={errors} />
    </div>
  );
}

/** A code's heading, status and uses in the list. */
function PromoSummary({ p }: { p: PromoView }) {
  return (
    <>
      <div className="cat-row-head">
        <h3>{p.code}</h3>
        <span className="cat-badge" data-kind={p.status === 'active' ? undefined : 'warn'}>{p.status === 'active' ? 'Active' : p.status === 'expired' ? 'Expired' : 'Used up'}</span>
      </div>
      <p className="cat-muted">
        {p.discount} · {p.courseName ?? 'every course'} · used {p.uses}{p.maxUses !== null ? ` of ${p.maxUses}` : ''} {p.uses === 1 ? 'time' : 'times'}
        {p.expiresAt !== null ? ` · valid until ${lastDay(p.expiresAt)}` : ''}
      </p>
    </>
  );
}
