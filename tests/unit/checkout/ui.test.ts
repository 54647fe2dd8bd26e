import { describe, expect, it } from 'vitest';
import {
  addMonths, arrowKeyDays, attendeeFormCount, availabilityErrorParts, bannerItems, cardReturnParams, checkoutEventParams,
  compareDates, costSummaryRequest, daysInMonth, disputeResolution, fieldDomId, isUnauthorisedCheckout, monthGrid,
  platformTerms, requestedSpacesOf, sameDate, selectedLinePrices, shareLinks, shareText, urlWithCheckoutId, weekdayOrder,
  withoutCardReturnParams, checkoutPageTitle,
} from '../../../src/domain/checkout/ui.ts';
import { flowTitle } from '../../../src/domain/checkout/flows.ts';
import { addCalendarDays, calendarWeekday, isoDate } from '../../../src/domain/zone.ts';
import { availabilityErrorText } from '../../../src/domain/checkout/messages.ts';
import { problems } from '../../../src/domain/problems.ts';

describe('share prompt (spec 2.15, 2.17)', () => {
  it('says the user booked the course with the educator', () => {
    expect(shareText('Raku Firing Day', 'Clay & Kiln')).toBe('I just booked Raku Firing Day with Clay & Kiln!');
  });
  it('has four links, each passing the link and the text', () => {
    const links = shareLinks('https://x.test/a b', 'Hi & bye');
    expect(links.map((l) => l.label)).toEqual(['Facebook', 'X', 'LinkedIn', 'Email']);
    expect(links[0].href).toContain(encodeURIComponent('https://x.test/a b'));
    expect(links[1].href).toContain(encodeURIComponent('Hi & bye'));
    expect(links[3].href.startsWith('mailto:?subject=')).toBe(true);
  });
});

describe('availability error (spec 8)', () => {
  it('splits into the lead and the skipping link, which together are the spec text', () => {
    const problem = { title: 'Something Went Wrong', detail: 'Timeout' };
    const { lead, link } = availabilityErrorParts(problem);
    expect(lead + link).toBe(availabilityErrorText(problem));
    expect(lead.startsWith('Timeout It looks like')).toBe(true);
    expect(link).toBe("let us know which dates work for you and we'll get back to you to book you in.");
  });
  it('uses the title without a detail', () => {
    expect(availabilityErrorParts({ title: 'Oops' }).lead.startsWith('Oops It looks like')).toBe(true);
  });
});

describe('error banner (spec 2.14, 8)', () => {
  it('lists validation properties as "{label}: {message}" with their keys', () => {
    const p = problems.validation([
      { key: 'payload.bookerFormResponse.phone', name: 'Mobile number', message: 'is required' },
      { key: 'payload.attendeeFormResponses.0.system_first_name', message: 'is required' },
    ]);
    expect(bannerItems(p)).toEqual({
      heading: 'Validation Error',
      items: [
        { text: 'Mobile number: is required', key: 'payload.bookerFormResponse.phone' },
        { text: 'System First Name: is required', key: 'payload.attendeeFormResponses.0.system_first_name' },
      ],
    });
  });
  it('shows "title: detail" or the title alone otherwise', () => {
    expect(bannerItems(problems.checkoutSubmission()).heading).toBe(
      'There was an issue submitting your response, check if there are any required fields that you have missed: If the problem persists, please contact support.',
    );
    expect(bannerItems({ title: 'Only a title' })).toEqual({ heading: 'Only a title', items: [] });
  });
  it('field ids are stable and safe', () => {
    expect(fieldDomId('payload.bookerFormResponse.system_email')).toBe('cf-payload-bookerFormResponse-system_email');
    expect(fieldDomId('payload.attendeeFormResponses.1.phone')).toBe('cf-payload-attendeeFormResponses-1-phone');
    expect(fieldDomId('a b"c')).toBe('cf-a-b-c');
  });
  it('recognises the unauthorised checkout problem under any errors host', () => {
    expect(isUnauthorisedCheckout(problems.unauthorisedCheckout())).toBe(true);
    expect(isUnauthorisedCheckout({ type: 'https://errors.localhost/checkout/unauthorised' })).toBe(true);
    expect(isUnauthorisedCheckout(problems.checkoutSubmission())).toBe(false);
    expect(isUnauthorisedCheckout(null)).toBe(false);
  });
});

describe('month calendar (spec 2.17)', () => {
  it('days in month, leap years included', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(daysInMonth(2025, 12)).toBe(31);
  });
  it('orders weekday headers from the first day of the week', () => {
    expect(weekdayOrder(1)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(weekdayOrder(0)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(weekdayOrder(6)).toEqual([6, 0, 1, 2, 3, 4, 5]);
  });
  it('pads the grid before the 1st and after the last day', () => {
    // 1 June 2025 is a Sunday.
    expect(calendarWeekday({ year: 2025, month: 6, day: 1 })).toBe(0);
    const monday = monthGrid(2025, 6, 1);
    expect(monday[0].slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(monday[0][6]).toEqual({ year: 2025, month: 6, day: 1 });
    expect(monday.every((w) => w.length === 7)).toBe(true);
    expect(monday.flat().filter(Boolean)).toHaveLength(30);
    const sunday = monthGrid(2025, 6, 0);
    expect(sunday[0][0]).toEqual({ year: 2025, month: 6, day: 1 });
    expect(sunday).toHaveLength(5);
  });
  it('moves by 1 or 7 days with the arrow keys, across months and years', () => {
    expect(arrowKeyDays('ArrowLeft')).toBe(-1);
    expect(arrowKeyDays('ArrowRight')).toBe(1);
    expect(arrowKeyDays('ArrowUp')).toBe(-7);
    expect(arrowKeyDays('ArrowDown')).toBe(7);
    expect(arrowKeyDays('Enter')).toBeNull();
    expect(addCalendarDays({ year: 2025, month: 12, day: 29 }, 7)).toEqual({ year: 2026, month: 1, day: 5 });
    expect(addCalendarDays({ year: 2024, month: 3, day: 1 }, -1)).toEqual({ year: 2024, month: 2, day: 29 });
  });
  it('adds months across years', () => {
    expect(addMonths({ year: 2025, month: 12 }, 1)).toEqual({ year: 2026, month: 1 });
    expect(addMonths({ year: 2025, month: 1 }, -1)).toEqual({ year: 2024, month: 12 });
  });
  it('compares and formats dates', () => {
    expect(sameDate({ year: 2025, month: 1, day: 2 }, { year: 2025, month: 1, day: 2 })).toBe(true);
    expect(sameDate(null, { year: 2025, month: 1, day: 2 })).toBe(false);
    expect(compareDates({ year: 2025, month: 1, day: 2 }, { year: 2025, month: 1, day: 3 })).toBeLessThan(0);
    expect(isoDate({ year: 2025, month: 3, day: 7 })).toBe('2025-03-07');
  });
});

describe('spaces, attendees and the cost-summary request (spec 3, 7)', () => {
  it('reads the requested spaces per flow, 1 when nothing is stored', () => {
    expect(requestedSpacesOf({ price: { state: { spacesRequested: 3 } } })).toBe(3);
    expect(requestedSpacesOf({})).toBe(1);
    expect(requestedSpacesOf({ delivery: { state: { requestedSpaces: 4 } } })).toBe(4);
    expect(requestedSpacesOf({ dates: { state: { spacesRequested: 6 } } })).toBe(6);
    expect(requestedSpacesOf({ price: { state: {} } })).toBe(1);
  });
  it('counts attendee forms: all but the attending booker', () => {
    expect(attendeeFormCount(3, true)).toBe(2);
    expect(attendeeFormCount(3, false)).toBe(3);
    expect(attendeeFormCount(1, true)).toBe(0);
    expect(attendeeFormCount(0, true)).toBe(0);
  });
  it('builds the spec 7 body, leaving out empty lines', () => {
    expect(costSummaryRequest({
      courseId: 'c1', occurrenceId: 'o1', voucherId: 'v1', origin: 'embed', paymentMethod: 'card',
      offers: [{ offerId: 'a', quantity: 2 }, { offerId: 'b', quantity: 0 }],
      addOns: [{ addonId: 'x', quantity: 1 }],
    })).toEqual({
      course_ref: 'c1', occurrence_ref: 'o1', voucher_ref: 'v1', origin: 'embed', payment_method: 'card',
      offers: [{ _id: 'a', quantity: 2 }], add_ons: [{ _id: 'x', quantity: 1 }], extras: [],
    });
  });
  it('sends an extra for a duration with an extra cost: its label, else the duration, times the spaces', () => {
    const base = { courseId: 'c', origin: 'marketplace', offers: [], addOns: [], requestedSpaces: 3 };
    expect(costSummaryRequest({ ...base, duration: { label: 'Half day', duration: 240, extra_cost: 2500 } }).extras)
      .toEqual([{ label: 'Half day', cost: 2500, quantity: 3 }]);
    expect(costSummaryRequest({ ...base, duration: { label: null, duration: 120, extra_cost: 1000 } }).extras)
      .toEqual([{ label: '2 Hours', cost: 1000, quantity: 3 }]);
    expect(costSummaryRequest({ ...base, duration: { label: null, duration: 90, extra_cost: 1000 } }).extras[0].label).toBe('1 Hour 30 Minutes');
    expect(costSummaryRequest({ ...base, duration: { label: 'x', duration: 60, extra_cost: 0 } }).extras).toEqual([]);
    expect(costSummaryRequest({ ...base, occurrenceId: undefined }).occurrence_ref).toBeNull();
  });
  it('reads the selected prices from the cost summary (offers and add-ons, or the offers total)', () => {
    const summary = { summary_items: { offerSummary: [{ value: 0 }, { value: 0 }], addOnSummary: [{ value: 1500 }] } };
    expect(selectedLinePrices(summary)).toEqual([{ price: 0 }, { price: 0 }, { price: 1500 }]);
    expect(selectedLinePrices(summary, true)).toEqual([{ price: 0 }]);
    expect(selectedLinePrices({ summary_items: { offerSummary: [{ value: 4500 }] } }, true)).toEqual([{ price: 4500 }]);
    expect(selectedLinePrices(null)).toEqual([]);
  });
});

describe('terms (spec 1, 9)', () => {
  it('states every platform figure', () => {
    const text = platformTerms('Course Marketplace').paragraphs.join(' ');
    expect(text).toContain('18 or older');
    expect(text).toContain('transaction fees on paid orders');
    expect(text).toContain('refunds its fees');
    expect(text).toContain('within 30 days of the delivery date');
    expect(text).toContain('changes to these terms 30 days ahead');
    expect(text).toContain('within 24 hours');
    expect(text).toContain('99.99% uptime');
  });
  it('has a Dispute Resolution section', () => {
    const section = disputeResolution('Course Marketplace');
    expect(section.heading).toBe('Dispute Resolution');
    expect(section.paragraphs.join(' ')).toContain('30 days of the delivery date');
  });
});

describe('address bar (spec 2.14)', () => {
  it('keeps the checkout id in the URL', () => {
    expect(urlWithCheckoutId('http://h/checkout?flow=booking&course=c', 'chk_1')).toBe('http://h/checkout?flow=booking&course=c&checkoutId=chk_1');
    expect(urlWithCheckoutId('http://h/checkout?checkoutId=old', 'new')).toBe('http://h/checkout?checkoutId=new');
  });
  it('reads and removes the card provider return parameters', () => {
    const href = 'http://h/checkout?checkoutId=c&payment_intent=pi&payment_intent_client_secret=s&redirect_status=succeeded';
    expect(cardReturnParams(href)).toEqual({ payment_intent_client_secret: 's', redirect_status: 'succeeded' });
    expect(cardReturnParams('http://h/checkout?checkoutId=c')).toBeNull();
    expect(cardReturnParams('http://h/c?redirect_status=failed')).toEqual({ payment_intent_client_secret: '', redirect_status: 'failed' });
    expect(withoutCardReturnParams(href)).toBe('http://h/checkout?checkoutId=c');
  });
});

describe('analytics payloads (spec 1)', () => {
  it('carries the course, the currency and the value in pounds', () => {
    expect(checkoutEventParams({ courseId: 'c', courseName: 'N', currency: 'GBP', totalPence: 4550, transactionId: 'BKG-1' })).toEqual({
      currency: 'GBP', value: 45.5, transaction_id: 'BKG-1', items: [{ item_id: 'c', item_name: 'N' }],
    });
    expect(checkoutEventParams({ courseId: 'c', courseName: 'N', currency: 'GBP' })).toEqual({ currency: 'GBP', items: [{ item_id: 'c', item_name: 'N' }] });
  });
});

describe('checkoutPageTitle', () => {
  it('names the course, or what a flow without a course sells and from whom', () => {
    expect(checkoutPageTitle({ courseName: 'Wheel Throwing', flowTitle: null, educatorName: 'Clay' })).toBe('Checkout – Wheel Throwing');
    expect(checkoutPageTitle({ courseName: null, flowTitle: flowTitle('giftVoucher'), educatorName: 'Clay & Kiln Pottery' })).toBe('Gift Voucher – Clay & Kiln Pottery');
    expect(checkoutPageTitle({ courseName: null, flowTitle: flowTitle('membership'), educatorName: 'Clay' })).toBe('Checkout – Clay');
  });
});
