/** What an admin may do to a form learners are filling in (src/domain/admin/forms.ts). */
import { describe, expect, it } from 'vitest';
import { fieldInputSchema, formEditProblems, newlyRequired, newlyRequiredNotice } from '../../src/domain/admin/forms.ts';

const saved = [
  { id: 'fld_a', label: 'Experience', dataType: 'radio', required: true },
  { id: 'fld_b', label: 'Diet', dataType: 'textarea', required: false },
];
const field = (patch: Record<string, unknown>) => fieldInputSchema.parse({ label: 'X', dataType: 'text', ...patch });

describe('form edits', () => {
  it('keeps a saved field\'s type, and names ids the form does not have', () => {
    expect(formEditProblems(saved, [field({ id: 'fld_a', dataType: 'radio', items: ['A', 'B'] }), field({ id: 'fld_b', dataType: 'textarea' })])).toEqual([]);
    expect(formEditProblems(saved, [field({ id: 'fld_b', dataType: 'text' })])).toEqual([
      { key: 'fields.0.dataType', message: 'cannot change once saved (it is Long text): remove the field and add a new one' },
    ]);
    expect(formEditProblems(saved, [field({ id: 'fld_z' })])).toEqual([{ key: 'fields.0.id', message: 'is not a field of this form' }]);
  });

  it('lists what a learner who opened the form before has not been asked for', () => {
    const after = [field({ id: 'fld_a', dataType: 'radio', items: ['A', 'B'], required: true }), field({ id: 'fld_b', dataType: 'textarea', required: true, label: 'Diet' }), field({ label: 'New', required: true }), field({ label: 'Optional' })];
    expect(newlyRequired(saved, after)).toEqual(['Diet', 'New']);
    expect(newlyRequiredNotice([])).toBeNull();
    expect(newlyRequiredNotice(['Diet'])).toBe('Learners who opened this form before you saved it will be asked for “Diet” when they continue.');
  });

  it('needs choices for the choice types (two for one-choice types, one for tick boxes) and drops them elsewhere', () => {
    expect(fieldInputSchema.safeParse({ label: 'Pick', dataType: 'radio', items: ['Only'] }).success).toBe(false);
    expect(fieldInputSchema.safeParse({ label: 'Pick', dataType: 'radio', items: ['A', 'B'] }).success).toBe(true);
    expect(fieldInputSchema.safeParse({ label: 'Tick', dataType: 'checkbox', items: ['I agree'] }).success).toBe(true);
    expect(fieldInputSchema.safeParse({ label: 'Tick', dataType: 'checkbox', items: [] }).success).toBe(false);
    expect(field({ dataType: 'text', items: ['stray'] }).items).toEqual([]);
  });
});
