/**
 * The educator admin's catalogue screens in the browser, on the admin host (docs/admin.md): a weekly series across
 * the March clock change made with the keyboard only (previewed, saved, stored at the right UTC instants and listed by
 * the public API at 10:00 London), a custom form made with the keyboard, and axe (WCAG 2.2 AA) with 0 violations on
 * every screen of this area at desktop width and on a 390px-wide phone. The educator is made for this file, so the demo
 * catalogue the other browser tests read is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import { adminPageAs, axeViolations, educatorAdminUrl, seedEducatorAdmin } from './helpers/admin.ts';
import { closeBrowser, productDb } from './harness.ts';
import { nextMarchClockChange } from '../helpers/admin.ts';
import type { Db } from '../../db/client.ts';


const suffix = Date.now().toString(36);
const EDUCATOR = `edu_e2e_adm_${suffix}`;
const COURSE = `crs_e2e_adm_${suffix}`;
let db: Db;
let email: string;

const adminUrl = (path: string) => educatorAdminUrl(EDUCATOR, path);

beforeAll(async () => {
  db = productDb();
  const seeded = await seedEducatorAdmin(db, 'adm-dates', { id: EDUCATOR, slug: `e2e-admin-${suffix}`, name: 'Kiln Lane Pottery' }, { id: COURSE, slug: 'wheel-throwing', name: 'Wheel Throwing', spaces: 8 });
  email = seeded.email;
});

afterAll(async () => {
  await db?.destroy();
  await closeBrowser();
});

/** A page signed in on the admin host (through its own /api/auth/login, same origin). */
const adminPage = (width: number) => adminPageAs(email, width);

/** Focuses a control and presses a key (no mouse anywhere). */
async function press(page: Page, locator: ReturnType<Page['locator']>, key: string): Promise<void> {
  await locator.focus();
  await page.keyboard.press(key);
}

async function typeInto(page: Page, locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  await locator.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * Types a date into a date input with the keyboard. The order of its day and month segments follows the browser's own
 * locale (not the page's), so a first pass of 01, 02 shows which segment comes first; Shift+Tab goes back to the
 * first segment and the date is typed in that order.
 */
async function typeDate(page: Page, locator: ReturnType<Page['locator']>, year: number, month: number, day: number): Promise<void> {
  await locator.focus();
  await page.keyboard.type(`0102${year}`);
  const monthFirst = (await locator.inputValue()) === `${year}-01-02`;
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  const mm = String(month).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  await page.keyboard.type(monthFirst ? `${mm}${dd}${year}` : `${dd}${mm}${year}`);
}

describe('dates with the keyboard', () => {
  it('adds a weekly series across the March clock change, kept at 10:00 London on both sides', async () => {
    const { year, sunday } = nextMarchClockChange();
    const before = sunday - 7;
    const { page, close } = await adminPage(1280);
    try {
      await page.goto(adminUrl(`/courses/${COURSE}/dates`));
      await page.getByRole('heading', { name: 'Wheel Throwing', level: 2 }).waitFor();
      await press(page, page.getByRole('button', { name: 'Add dates' }), 'Enter');
      // The repeat choice is a radio group: the arrow key moves to "Every week".
      await press(page, page.getByRole('radio', { name: 'One date' }), 'ArrowRight');
      expect(await page.getByRole('radio', { name: 'Every week' }).isChecked()).toBe(true);
      // Date and time inputs take typed digits (24-hour time).
      await typeDate(page, page.getByLabel('First date'), year, 3, before);
      expect(await page.getByLabel('First date').inputValue()).toBe(`${year}-03-${String(before).padStart(2, '0')}`);
      await page.getByLabel('Starts at (London time)').focus();
      await page.keyboard.type('1000');
      await page.getByLabel('Ends at (London time)').focus();
      await page.keyboard.type('1130');
      await press(page, page.getByRole('checkbox', { name: 'Sunday' }), 'Space');
      await typeInto(page, page.getByRole('spinbutton', { name: 'Number of dates' }), '3');
      await typeInto(page, page.getByLabel('Address line 1'), '12 Kiln Lane');
      await typeInto(page, page.getByLabel('Town or city'), 'Bristol');
      await typeInto(page, page.getByLabel('Spaces', { exact: true }), '6');

      const pad = (n: number) => String(n);
      const preview = page.getByTestId('series-preview');
      await expect.poll(() => preview.locator('li').allTextContents()).toEqual([
        `Sun ${pad(before)} Mar ${year}, 10:00–11:30`, `Sun ${pad(sunday)} Mar ${year}, 10:00–11:30`, `Sun ${new Date(Date.UTC(year, 2, sunday + 7)).getUTCDate()} Apr ${year}, 10:00–11:30`,
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await press(page, page.getByRole('button', { name: 'Add 3 dates' }), 'Enter');
      await page.getByText(/^Added 3 dates/).waitFor();
      await expect.poll(() => page.getByTestId('dates-list').locator('h3').allTextContents()).toEqual([
        `Sun ${before} Mar ${year}, 10:00–11:30`, `Sun ${sunday} Mar ${year}, 10:00–11:30`, `Sun ${new Date(Date.UTC(year, 2, sunday + 7)).getUTCDate()} Apr ${year}, 10:00–11:30`,
      ]);
      await page.getByTestId('publish-status').waitFor();

      const rows = await db.selectFrom('occurrences').select(['start_datetime', 'end_datetime', 'series_id', 'spaces']).where('course_id', '=', COURSE).orderBy('start_datetime').execute();
      expect(rows.map((r) => Number(r.start_datetime))).toEqual([
        Date.UTC(year, 2, before, 10) / 1000, Date.UTC(year, 2, sunday, 9) / 1000, Date.UTC(year, 2, sunday + 7, 9) / 1000,
      ]);
      expect(new Set(rows.map((r) => r.series_id)).size).toBe(1);
      expect(rows.every((r) => Number(r.spaces) === 6)).toBe(true);
      const listed = await (await fetch(`http://localhost:${inject('port')}/api/get-course-data-ids/${EDUCATOR}/${COURSE}`)).json();
      expect(listed.occurrences.map((o: { times: { start: { zoned_datetime: string } } }) => o.times.start.zoned_datetime.slice(11))).toEqual(['10:00:00+00:00', '10:00:00+01:00', '10:00:00+01:00']);
    } finally {
      await close();
    }
  });
});

describe('a custom form with the keyboard', () => {
  it('makes a form with a required choice question, as the checkout then shows it', async () => {
    const { page, close } = await adminPage(1280);
    try {
      await page.goto(adminUrl('/forms'));
      await press(page, page.getByRole('button', { name: 'New form' }), 'Enter');
      await typeInto(page, page.getByLabel('Form name'), 'Pottery intake');
      await press(page, page.getByRole('button', { name: 'Add a field' }), 'Enter');
      await typeInto(page, page.getByLabel('Question'), 'Your experience');
      // A select takes typed letters: "Op" chooses "Options (one choice)".
      await page.getByLabel('Type').focus();
      await page.keyboard.type('Op');
      expect(await page.getByLabel('Type').inputValue()).toBe('radio');
      await page.getByLabel('Choices, one per line').focus();
      await page.keyboard.type('None');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Some');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Lots');
      await press(page, page.getByRole('checkbox', { name: 'Required' }), 'Space');
      expect(await axeViolations(page)).toEqual([]);
      await press(page, page.getByRole('button', { name: 'Save form' }), 'Enter');
      await page.getByText('Saved Pottery intake.').waitFor();
      await page.getByTestId('forms-list').getByRole('heading', { name: 'Pottery intake' }).waitFor();

      const form = await db.selectFrom('forms').select('id').where('educator_id', '=', EDUCATOR).where('name', '=', 'Pottery intake').executeTakeFirstOrThrow();
      const view = await (await fetch(`http://localhost:${inject('port')}/api/forms/${form.id}/view`)).json();
      const custom = view.fields.slice(3);
      expect(custom.map((f: { label: string; data_type: string; items: string[] }) => [f.label, f.data_type, f.items])).toEqual([['Your experience', 'radio', ['None', 'Some', 'Lots']]]);
      expect(view.validations).toEqual([{ field_ref: custom[0]._id, condition: 'required', value: true }]);

      // A refused save says why beside the field, and the banner takes focus.
      await press(page, page.getByRole('button', { name: 'Edit Pottery intake' }), 'Enter');
      await typeInto(page, page.getByLabel('Form name'), ' ');
      await press(page, page.getByRole('button', { name: 'Save form' }), 'Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('problem');
      await expect.poll(() => page.getByLabel('Form name').getAttribute('aria-invalid')).toBe('true');
      await page.getByText('is required').first().waitFor();
    } finally {
      await close();
    }
  });
});

describe('accessibility: 0 axe violations on every screen of the catalogue area', () => {
  const screens = () => [
    `/courses/${COURSE}/dates`, '/forms', '/locations', '/collections', '/promo-codes', '/gift-vouchers', '/memberships',
  ];
  for (const width of [1280, 390]) {
    it(`at ${width}px, with each screen's form open too`, async () => {
      const { page, close } = await adminPage(width);
      const failures: Record<string, string[]> = {};
      try {
        for (const path of screens()) {
          await page.goto(adminUrl(path), { waitUntil: 'networkidle' });
          await page.locator('main [data-testid$="-editor"]').first().waitFor();
          const first = await axeViolations(page);
          if (first.length) failures[path] = first;
          // The form of the screen, opened.
          const opener = page.locator('main').getByRole('button', { name: /^(Add dates|New form|New location|New collection|New promo code|New plan)$/ });
          if (await opener.count()) {
            await opener.first().click();
            const open = await axeViolations(page);
            if (open.length) failures[`${path} (form open)`] = open;
          }
          // Nothing is wider than the phone's screen.
          if (width === 390) {
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (overflow > 0) failures[`${path} width`] = [`the page is ${overflow}px wider than the screen`];
          }
        }
      } finally {
        await close();
      }
      expect(failures).toEqual({});
    });
  }
});
