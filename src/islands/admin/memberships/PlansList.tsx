/** The educator's membership plans, each with its price, benefits, courses and members, and Edit and Remove. */
import { priceText, type PlanView } from '../../../domain/admin/membership-form.ts';
import { ConfirmRemove, EditRemoveButtons } from '../editor-rows.tsx';

interface Props {
  plans: PlanView[];
  courseName: (id: string) => string;
  confirming: string | null;
  setConfirming: (id: string | null) => void;
  onEdit: (p: PlanView) => void;
  onRemove: (p: PlanView) => void;
}

export default function PlansList({ plans, courseName, confirming, setConfirming, onEdit, onRemove }: Props) {
  return (
    <section aria-labelledby="plans-heading">
      <h2 id="plans-heading">Your plans</h2>
      {plans.length === 0 ? <p className="admin-empty">No membership plans yet.</p> : (
        <ul className="cat-list">
          {plans.map((p) => (
            <li key={p.id}>
              <div className="cat-row-head">
                <h3>{p.name}</h3>
                {!p.listed && <span className="cat-badge" data-kind="warn">Not listed</span>}
              </div>
              <p className="cat-muted">
                {priceText(p)}{p.discountPercent ? ` · ${p.discountPercent}% off` : ''}{p.creditsPerPeriod ? ` · ${p.creditsPerPeriod} credits` : ''} · {p.courseIds ? p.courseIds.map(courseName).join(', ') : 'every course'} · {p.members} current {p.members === 1 ? 'member' : 'members'}
              </p>
              {confirming === p.id ? (
                <ConfirmRemove label={`Remove ${p.name}?`} onRemove={() => onRemove(p)} onKeep={() => setConfirming(null)}>Remove {p.name}?</ConfirmRemove>
              ) : (
                <EditRemoveButtons editLabel={`Edit ${p.name}`} removeLabel={`Remove ${p.name}`} onEdit={() => onEdit(p)} onAsk={() => setConfirming(p.id)} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
