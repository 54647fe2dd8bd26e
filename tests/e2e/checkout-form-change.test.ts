/**
 * A form the educator changes while a learner fills it in (spec 5 "Required form fields": the server validates
 * submitted responses): the educator makes an optional field required and adds a required one after the learner's
 * Contact Info step has loaded the form. Continue is refused by the server, and the screen then shows the form as
 * it is now — the new field, both marked required with the server's message — so the learner answers them and
 * continues without reloading the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeBrowser, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';

let db: Db;
const stamp = Date.now().toString(36);
const formId = `frm_e2e_change_${stamp}`;
// A Clay & Kiln course no other browser test books, given a form of this test's own so no other test sees its edits.
const courseId = 'crs_0001_03';
const educatorId = 'edu_0001';
let formerFormRef = 'system_default';

const SYSTEM_FIELDS = [
  { id: 'system_first_name', label: 'First Name', data_type: 'first_name' },
  { id: 'system_last_name', label: 'Last Name', data_type: 'last_name' },
  { id: 'system_email', label: 'Email', data_type: 'email' },
] as const;

async function addField(position: number, id: string, label: string, required: boolean): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await db.insertInto('form_fields').values({
    form_id: formId, id, position, label, description: null, data_type: 'text', items: null, educator_ref: educatorId, created_at: now, updated_at: now,
  }).execute();
  if (required) await requireField(id);
}

async function requireField(id: string): Promise<void> {
  await db.insertInto('form_validations').values({ form_id: formId, field_ref: id, condition: 'required', value_json: true }).execute();
}

beforeAll(async () => {
  db = productDb();
  await db.insertInto('forms').values({ id: formId, educator_id: educatorId, name: 'Changing form' }).execute();
  for (const [position, field] of SYSTEM_FIELDS.entries()) {
    await addField(position, field.id, field.label, true);
  }
  await addField(3, 'dietary_needs', 'Dietary needs', false);
  const course = await db.selectFrom('courses').select('form_ref').where('id', '=', courseId).executeTakeFirstOrThrow();
  formerFormRef = course.form_ref;
  await db.updateTable('courses').set({ form_ref: formId }).where('id', '=', courseId).execute();
});

afterAll(async () => {
  await db.updateTable('courses').set({ form_ref: formerFormRef }).where('id', '=', courseId).execute();
  await closeBrowser();
  await db.destroy();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 2 }).first();
const cont = (page: Page) => page.locator('.checkout-summary__continue').click();

describe('a field made required while the learner is at Contact Info', () => {
  it('shows the form as it is now after the refusal, and continues once the learner answers it', async () => {
    const email = await makeLearner(db, 'form-change');
    const { page, context } = await learnerPage(email);
    await page.goto(url(`/checkout?flow=booking&course=${courseId}`));
    await heading(page, 'Select Date').waitFor();
    await page.locator('.date-option:not([disabled])').first().click();
    await heading(page, 'Select Spaces').waitFor();
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    const dietary = page.getByLabel('Dietary needs');
    await dietary.waitFor();
    expect(await dietary.getAttribute('aria-required')).toBeNull();
    await expect(page.getByLabel('Emergency contact').count()).resolves.toBe(0);

    // Meanwhile the educator makes "Dietary needs" required and adds a required "Emergency contact".
    await requireField('dietary_needs');
    await addField(4, 'emergency_contact', 'Emergency contact', true);

    await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await cont(page);
    // The server refuses; the screen now has the form as saved, without a reload. (A short wait: before the fix
    // the field never appears, and the test should say so well inside the run's hang timeout.)
    const emergency = page.getByLabel('Emergency contact');
    await emergency.waitFor({ timeout: 20_000 });
    await expect(emergency.getAttribute('aria-required')).resolves.toBe('true');
    await expect(emergency.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(dietary.getAttribute('aria-required')).resolves.toBe('true');
    await expect(page.locator('.field__error', { hasText: 'is required' }).count()).resolves.toBe(2);

    const before = page.url();
    await dietary.fill('No nuts');
    await emergency.fill('Grace, 07700 900456');
    await cont(page);
    await heading(page, 'Payment').waitFor();
    // The same page, never reloaded: the checkout id and the address are the ones the learner started with.
    expect(page.url()).toBe(before);
    const checkoutId = new URL(before).searchParams.get('checkoutId');
    const row = await db.selectFrom('checkouts').select('step_state').where('id', '=', checkoutId!).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.step_state)).toContain('Grace, 07700 900456');
    await context.close();
  });
});
