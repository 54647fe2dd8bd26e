/**
 * The course editor's lists: offers, add-ons, durations, FAQs, sections and their lessons. Each row is a fieldset
 * named by its position ("Offer 1"), with its own fields and a Remove button; "Add …" appends a row and moves the
 * focus into it. An offer or add-on a learner holds says so and cannot be removed here (the server refuses it too).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import {
  emptyAddOn, emptyDuration, emptyFaq, emptyLesson, emptyOffer, emptySection, fieldId,
  type AddOnDraft, type DurationDraft, type FaqDraft, type OfferDraft, type SectionDraft,
} from '../../../domain/admin/course-form.ts';
import { MoneyField, TextArea, TextField } from './fields.tsx';

type Errors = Record<string, string>;

/** Focus the first input of the row just added. */
function useFocusNew(count: number, prefix: string) {
  const previous = useRef(count);
  useEffect(() => {
    if (count > previous.current) document.getElementById(fieldId(`${prefix}.${count - 1}.${prefix === 'duration_pricing' ? 'duration' : prefix === 'faqs' ? 'question' : 'name'}`))?.focus();
    previous.current = count;
  }, [count, prefix]);
}

/** The list's "Add …" button, where the focus goes when a row is removed (it would otherwise be lost). */
const addButtonId = (list: string) => `add-${list}`;
const focusAdd = (list: string) => setTimeout(() => document.getElementById(addButtonId(list))?.focus(), 0);

function Row({ list, legend, children, onRemove, removeLabel, removeDisabled, note }: {
  list: string; legend: string; children: ReactNode; onRemove(): void; removeLabel: string; removeDisabled?: boolean; note?: string;
}) {
  return (
    <fieldset className="course-row">
      <legend>{legend}</legend>
      {note ? <p className="hint">{note}</p> : null}
      <div className="course-row__fields">{children}</div>
      <button type="button" className="btn btn--ghost btn--small course-row__remove" onClick={() => { onRemove(); focusAdd(list); }} disabled={removeDisabled} aria-label={removeLabel}>
        Remove
      </button>
    </fieldset>
  );
}

function update<T>(list: T[], index: number, patch: Partial<T>): T[] {
  return list.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

const held = (n: number) => `${n} ${n === 1 ? 'learner holds' : 'learners hold'} this (a booking still to come or a payment in progress): it cannot be removed. Stop selling it with a sale end instead.`;

export function OffersEditor({ offers, onChange, errors }: { offers: OfferDraft[]; onChange(o: OfferDraft[]): void; errors: Errors }) {
  useFocusNew(offers.length, 'offers');
  return (
    <div className="course-list">
      {errors.offers ? <p className="field-error" id={`${fieldId('offers')}-error`}>{errors.offers}</p> : null}
      {offers.map((o, i) => (
        <Row
          list="offers" key={o.key} legend={`Offer ${i + 1}${o.name ? `: ${o.name}` : ''}`} onRemove={() => onChange(offers.filter((_, j) => j !== i))}
          removeLabel={`Remove offer ${i + 1}`} removeDisabled={o.heldBy > 0} note={o.heldBy > 0 ? held(o.heldBy) : undefined}
        >
          <TextField name={`offers.${i}.name`} label="Name" required value={o.name} onChange={(v) => onChange(update(offers, i, { name: v }))} error={errors[`offers.${i}.name`]} maxLength={120} />
          <MoneyField name={`offers.${i}.price`} label="Price (£)" required hint="0 for free" value={o.price} onChange={(v) => onChange(update(offers, i, { price: v }))} error={errors[`offers.${i}.price`]} />
          <TextField name={`offers.${i}.spaces`} label="Spaces per booking" inputMode="numeric" hint="A pair ticket takes 2" value={o.spaces} onChange={(v) => onChange(update(offers, i, { spaces: v }))} error={errors[`offers.${i}.spaces`]} />
          <TextArea name={`offers.${i}.description`} label="Description" rows={2} value={o.description} onChange={(v) => onChange(update(offers, i, { description: v }))} error={errors[`offers.${i}.description`]} />
          <TextField name={`offers.${i}.start_at`} label="On sale from" type="datetime-local" hint="UK time; empty: now" value={o.start} onChange={(v) => onChange(update(offers, i, { start: v }))} error={errors[`offers.${i}.start_at`]} />
          <TextField name={`offers.${i}.end_at`} label="On sale until" type="datetime-local" hint="UK time; empty: no end" value={o.end} onChange={(v) => onChange(update(offers, i, { end: v }))} error={errors[`offers.${i}.end_at`]} />
        </Row>
      ))}
      <button type="button" id={addButtonId('offers')} className="btn btn--secondary" onClick={() => onChange([...offers, emptyOffer()])}>Add an offer</button>
    </div>
  );
}

export function AddOnsEditor({ addOns, onChange, errors }: { addOns: AddOnDraft[]; onChange(a: AddOnDraft[]): void; errors: Errors }) {
  useFocusNew(addOns.length, 'add_ons');
  return (
    <div className="course-list">
      {errors.add_ons ? <p className="field-error" id={`${fieldId('add_ons')}-error`}>{errors.add_ons}</p> : null}
      {addOns.map((a, i) => (
        <Row
          list="add_ons" key={a.key} legend={`Add-on ${i + 1}${a.name ? `: ${a.name}` : ''}`} onRemove={() => onChange(addOns.filter((_, j) => j !== i))}
          removeLabel={`Remove add-on ${i + 1}`} removeDisabled={a.heldBy > 0} note={a.heldBy > 0 ? held(a.heldBy) : undefined}
        >
          <TextField name={`add_ons.${i}.name`} label="Name" required value={a.name} onChange={(v) => onChange(update(addOns, i, { name: v }))} error={errors[`add_ons.${i}.name`]} maxLength={120} />
          <MoneyField name={`add_ons.${i}.price`} label="Price (£)" required value={a.price} onChange={(v) => onChange(update(addOns, i, { price: v }))} error={errors[`add_ons.${i}.price`]} />
          <TextArea name={`add_ons.${i}.description`} label="Description" rows={2} value={a.description} onChange={(v) => onChange(update(addOns, i, { description: v }))} error={errors[`add_ons.${i}.description`]} />
        </Row>
      ))}
      <button type="button" id={addButtonId('add_ons')} className="btn btn--secondary" onClick={() => onChange([...addOns, emptyAddOn()])}>Add an add-on</button>
    </div>
  );
}

export function DurationsEditor({ durations, onChange, errors }: { durations: DurationDraft[]; onChange(d: DurationDraft[]): void; errors: Errors }) {
  useFocusNew(durations.length, 'duration_pricing');
  return (
    <div className="course-list">
      {durations.map((d, i) => (
        <Row list="duration_pricing" key={d.key} legend={`Duration ${i + 1}`} onRemove={() => onChange(durations.filter((_, j) => j !== i))} removeLabel={`Remove duration ${i + 1}`}>
          <TextField name={`duration_pricing.${i}.duration`} label="Length (minutes)" required inputMode="numeric" value={d.duration} onChange={(v) => onChange(update(durations, i, { duration: v }))} error={errors[`duration_pricing.${i}.duration`]} />
          <TextField name={`duration_pricing.${i}.label`} label="Label" value={d.label} onChange={(v) => onChange(update(durations, i, { label: v }))} error={errors[`duration_pricing.${i}.label`]} />
          <MoneyField name={`duration_pricing.${i}.extra_cost`} label="Extra cost (£)" hint="Per person, added to the price" value={d.extra} onChange={(v) => onChange(update(durations, i, { extra: v }))} error={errors[`duration_pricing.${i}.extra_cost`]} />
          <TextArea name={`duration_pricing.${i}.description`} label="Description" rows={2} value={d.description} onChange={(v) => onChange(update(durations, i, { description: v }))} error={errors[`duration_pricing.${i}.description`]} />
        </Row>
      ))}
      <button type="button" id={addButtonId('duration_pricing')} className="btn btn--secondary" onClick={() => onChange([...durations, emptyDuration()])}>Add a duration</button>
    </div>
  );
}

export function FaqsEditor({ faqs, onChange, errors }: { faqs: FaqDraft[]; onChange(f: FaqDraft[]): void; errors: Errors }) {
  useFocusNew(faqs.length, 'faqs');
  return (
    <div className="course-list">
      {faqs.map((f, i) => (
        <Row list="faqs" key={f.key} legend={`Question ${i + 1}`} onRemove={() => onChange(faqs.filter((_, j) => j !== i))} removeLabel={`Remove question ${i + 1}`}>
          <TextField name={`faqs.${i}.question`} label="Question" required value={f.question} onChange={(v) => onChange(update(faqs, i, { question: v }))} error={errors[`faqs.${i}.question`]} maxLength={300} />
          <TextArea name={`faqs.${i}.answer`} label="Answer" required rows={3} value={f.answer} onChange={(v) => onChange(update(faqs, i, { answer: v }))} error={errors[`faqs.${i}.answer`]} />
        </Row>
      ))}
      <button type="button" id={addButtonId('faqs')} className="btn btn--secondary" onClick={() => onChange([...faqs, emptyFaq()])}>Add a question</button>
    </div>
  );
}

export function SectionsEditor({ sections, onChange, errors }: { sections: SectionDraft[]; onChange(s: SectionDraft[]): void; errors: Errors }) {
  useFocusNew(sections.length, 'sections');
  return (
    <div className="course-list">
      {sections.map((s, i) => (
        <Row list="sections" key={s.key} legend={`Section ${i + 1}`} onRemove={() => onChange(sections.filter((_, j) => j !== i))} removeLabel={`Remove section ${i + 1}`}>
          <TextField name={`sections.${i}.name`} label="Section name" required value={s.name} onChange={(v) => onChange(update(sections, i, { name: v }))} error={errors[`sections.${i}.name`]} />
          <ol className="course-lessons">
            {s.lessons.map((l, j) => (
              <li key={l.key}>
                <TextField
                  name={`sections.${i}.lessons.${j}.name`} label={`Lesson ${j + 1}`} required value={l.name}
                  onChange={(v) => onChange(update(sections, i, { lessons: update(s.lessons, j, { name: v }) }))} error={errors[`sections.${i}.lessons.${j}.name`]}
                />
                <button type="button" className="btn btn--ghost btn--small" aria-label={`Remove lesson ${j + 1} of section ${i + 1}`}
                  onClick={() => onChange(update(sections, i, { lessons: s.lessons.filter((_, k) => k !== j) }))}>Remove</button>
              </li>
            ))}
          </ol>
          <button type="button" className="btn btn--secondary btn--small" aria-label={`Add a lesson to section ${i + 1}`}
            onClick={() => {
              onChange(update(sections, i, { lessons: [...s.lessons, emptyLesson()] }));
              setTimeout(() => document.getElementById(fieldId(`sections.${i}.lessons.${s.lessons.length}.name`))?.focus(), 0);
            }}>Add a lesson</button>
        </Row>
      ))}
      <button type="button" id={addButtonId('sections')} className="btn btn--secondary" onClick={() => onChange([...sections, emptySection()])}>Add a section</button>
    </div>
  );
}
