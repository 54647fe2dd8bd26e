/**
 * Steps of the checkout screen that several browser tests walk through (spec 2.14), on a page or inside a frame.
 */
import type { FrameLocator, Page } from 'playwright-core';

export type Root = Page | FrameLocator;

/** The Clay & Kiln booker form's required answers. */
export async function fillClayForm(root: Root): Promise<void> {
  await root.getByLabel('Mobile number').fill('07700 900123');
  await root.getByRole('radio', { name: 'Never' }).first().check();
}

/** Chooses Card, types a test card and pays. */
export async function payByCard(root: Root, card: string): Promise<void> {
  await root.getByRole('radio', { name: 'Card' }).check();
  await root.getByLabel('Card number').fill(card);
  await root.getByLabel('Expiry date').fill('12 / 34');
  await root.getByLabel('Security code (CVC)').fill('123');
  await root.getByRole('button', { name: /^Pay / }).click();
}

/** "Select a Date & Time": the first day with a free slot (this month or the next) and its first slot. */
export async function pickFirstCalendarSlot(root: Root): Promise<void> {
  await root.locator('.calendar__grid[aria-busy="false"]').waitFor();
  let day = root.locator('.calendar__day:not([aria-disabled="true"])').first();
  if (!(await day.count())) {
    await root.getByRole('button', { name: 'Next month' }).click();
    await root.locator('.calendar__grid[aria-busy="false"]').waitFor();
    day = root.locator('.calendar__day:not([aria-disabled="true"])').first();
  }
  await day.click();
  await root.getByText('Select a time:').waitFor();
  await root.locator('.slot').first().click();
}
