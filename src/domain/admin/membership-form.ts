/**
 * The Memberships screen's form as the admin types it (src/islands/admin/memberships/): a plan as the server lists
 * it, the draft of a new or existing plan, the body a draft is sent as, and the plan's price as listed.
 *
 * Pure: no I/O. What the admin typed is sent as typed where it is not a number, so the server names the problem
 * beside the field.
 */
import { penceToPounds, poundsToPence } from './catalogue-input.ts';
import { formatPence } from '../money.ts';

export interface PlanView {
  id: string; name: string; description: string; interval: 'month' | 'year' | 'pass'; passMonths: number | null; price: number; currency: string;
  discountPercent: number; creditsPerPeriod: number; courseIds: string[] | null; listed: boolean; revision: number; members: number; notice?: string | null;
}
export interface PlanDraft {
  id: string | null; revision: number; name: string; description: string; interval: PlanView['interval']; passMonths: string; price: string;
  discountPercent: string; creditsPerPeriod: string; allCourses: boolean; courseIds: string[]; listed: boolean;
}

export const PLAN_INTERVALS = [{ value: 'month', label: 'Every month' }, { value: 'year', label: 'Every year' }, { value: 'pass', label: 'A one-off pass' }];

const num = (v: string, empty: number | null) => (v.trim() === '' ? empty : Number.isFinite(Number(v)) ? Number(v) : v);

/** The draft of `plan`, or of a new plan (10% off every course, paid monthly, listed). */
export function planDraft(plan: PlanView | null): PlanDraft {
  return plan
    ? {
      id: plan.id, revision: plan.revision, name: plan.name, description: plan.description, interval: plan.interval, passMonths: plan.passMonths === null ? '' : String(plan.passMonths),
      price: penceToPounds(plan.price), discountPercent: String(plan.discountPercent), creditsPerPeriod: String(plan.creditsPerPeriod), allCourses: plan.courseIds === null,
      courseIds: plan.courseIds ?? [], listed: plan.listed,
    }
    : { id: null, revision: 0, name: '', description: '', interval: 'month', passMonths: '', price: '', discountPercent: '10', creditsPerPeriod: '0', allCourses: true, courseIds: [], listed: true };
}

/** The body a draft is saved with (its revision is added for an existing plan). */
export function planBody(draft: PlanDraft) {
  return {
    name: draft.name, description: draft.description, interval: draft.interval, passMonths: draft.interval === 'pass' ? num(draft.passMonths, null) : null,
    price: draft.price.trim() === '' ? null : poundsToPence(draft.price) ?? draft.price, discountPercent: num(draft.discountPercent, 0), creditsPerPeriod: num(draft.creditsPerPeriod, 0),
    courseIds: draft.allCourses ? null : draft.courseIds, listed: draft.listed,
  };
}

export function priceText(p: PlanView): string {
  const price = formatPence(p.price, p.currency);
  return p.interval === 'month' ? `${price} / month` : p.interval === 'year' ? `${price} / year` : `${price} for ${p.passMonths} ${p.passMonths === 1 ? 'month' : 'months'}`;
}

