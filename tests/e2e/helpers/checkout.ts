/**
 * Steps of the checkout screen that several browser tests walk through (spec 2.14), on a page or inside a frame.
 */
import { expect } from 'vitest';
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

/**
 * "Select a Date & Time": the n-th day with a free slot (this month, else the next) and its n-th slot. Tests
 * that book the same course at the same time pick different places so they never race for one slot.
 */
export async function pickCalendarSlot(root: Root, place: { day: number; slot: number } = { day: 0, slot: 0 }): Promise<void> {
  const freeDays = () => root.locator('.calendar__day:not([aria-disabled="true"])');
  await root.locator('.calendar__grid[aria-busy="false"]').waitFor();
  if ((await freeDays().count()) <= place.day) {
    await root.getByRole('button', { name: 'Next month' }).click();
    await root.locator('.calendar__grid[aria-busy="false"]').waitFor();
  }
  await freeDays().nth(place.day).click();
  await root.getByText('Select a time:').waitFor();
  const slots = root.locator('.slot');
  await slots.first().waitFor();
  await slots.nth(Math.min(place.slot, (await slots.count()) - 1)).click();
}

const POLL = { timeout: 15_000, interval: 100 };

const headingLocator = (root: Root, name: string | RegExp) => root.getByRole('heading', { name, level: 2 }).first();

/** Waits for a step's heading; the error banner instead fails with its text. */
export async function stepHeading(root: Root, name: string | RegExp): Promise<void> {
  const banner = root.locator('.checkout-error');
  await headingLocator(root, name).or(banner).first().waitFor();
  if (await banner.isVisible() && !(await headingLocator(root, name).isVisible())) throw new Error(`Expected "${name}", the error banner says: ${await banner.textContent()}`);
}

/** The summary's Continue button. */
export async function continueCheckout(root: Root): Promise<void> {
  await root.locator('.checkout-summary__continue').click();
}

/** Sets an offer's quantity with its +/- buttons (the group is labelled by the offer's name). */
export async function setQuantity(root: Root, offer: string, target: number): Promise<void> {
  const row = root.getByRole('group', { name: offer, exact: true });
  const value = row.locator('output');
  for (let guard = 0; guard < 10; guard++) {
    const current = Number(await value.textContent());
    if (current === target) return;
    await row.getByRole('button', { name: current < target ? 'Add one to basket' : 'Remove one from basket' }).click();
    await expect.poll(async () => Number(await value.textContent()), POLL).not.toBe(current);
  }
  throw new Error(`could not set ${offer} to ${target}`);
}
