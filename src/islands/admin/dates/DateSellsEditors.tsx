/**
 * A date's own offers and add-ons: each sold instead of the course's when the date has any (empty: the date sells
 * the course's). Used by the Dates screen's form for one date, not for a series.
 */
import { TextArea, TextField, type FieldErrors } from '../catalogue/kit.tsx';
import type { AddOnDraft, OfferDraft } from '../../../domain/admin/date-drafts.ts';

export function OffersEditor({ offers, onChange, errors, courseOffers }: { offers: OfferDraft[]; onChange: (v: OfferDraft[]) => void; errors: FieldErrors; courseOffers: number }) {
  const update = (i: number, patch: Partial<OfferDraft>) => onChange(offers.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  return (
    <fieldset className="cat-fieldset">
      <legend>Offers of this date</legend>
      <p className="hint cat-muted">{offers.length === 0 ? `None: this date sells the course's offers${courseOffers ? ` (${courseOffers})` : ''}.` : 'This date sells these instead of the course\'s offers.'}</p>
      {offers.map((o, i) => (
        <div className="cat-sub" key={o.id ?? `new-${i}`}>
          <h4>Offer {i + 1}</h4>
          <div className="cat-grid">
            <TextField label="Name" name={`offers.${i}.name`} value={o.name} onChange={(v) => update(i, { name: v })} errors={errors} />
            <TextField label="Price (£)" name={`offers.${i}.price`} inputMode="decimal" value={o.price} onChange={(v) => update(i, { price: v })} errors={errors} hint="Empty or 0: free." />
            <TextField label="Spaces each" name={`offers.${i}.spaces`} type="number" inputMode="numeric" value={o.spaces} onChange={(v) => update(i, { spaces: v })} errors={errors} />
          </div>
          <TextArea label="Description" name={`offers.${i}.description`} value={o.description} onChange={(v) => update(i, { description: v })} errors={errors} rows={2} />
          <button type="button" className="btn btn--ghost btn--small" onClick={() => onChange(offers.filter((_, j) => j !== i))}>Remove offer {i + 1}</button>
        </div>
      ))}
      <p><button type="button" className="btn btn--secondary btn--small" onClick={() => onChange([...offers, { name: '', price: '', spaces: '1', description: '', startAt: null, endAt: null }])}>Add an offer</button></p>
    </fieldset>
  );
}

export function AddOnsEditor({ addOns, onChange, errors }: { addOns: AddOnDraft[]; onChange: (v: AddOnDraft[]) => void; errors: FieldErrors }) {
  const update = (i: number, patch: Partial<AddOnDraft>) => onChange(addOns.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <fieldset className="cat-fieldset">
      <legend>Add-ons of this date</legend>
      <p className="hint cat-muted">{addOns.length === 0 ? 'None: this date sells the course\'s add-ons.' : 'This date sells these instead of the course\'s add-ons.'}</p>
      {addOns.map((a, i) => (
        <div className="cat-sub" key={a.id ?? `new-${i}`}>
          <h4>Add-on {i + 1}</h4>
          <div className="cat-grid">
            <TextField label="Name" name={`addOns.${i}.name`} value={a.name} onChange={(v) => update(i, { name: v })} errors={errors} />
            <TextField label="Price (£)" name={`addOns.${i}.price`} inputMode="decimal" value={a.price} onChange={(v) => update(i, { price: v })} errors={errors} />
          </div>
          <TextArea label="Description" name={`addOns.${i}.description`} value={a.description} onChange={(v) => update(i, { description: v })} errors={errors} rows={2} />
          <button type="button" className="btn btn--ghost btn--small" onClick={() => onChange(addOns.filter((_, j) => j !== i))}>Remove add-on {i + 1}</button>
        </div>
      ))}
      <p><button type="button" className="btn btn--secondary btn--small" onClick={() => onChange([...addOns, { name: '', price: '', description: '' }])}>Add an add-on</button></p>
    </fieldset>
  );
}
