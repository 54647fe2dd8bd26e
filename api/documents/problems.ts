/**
 * Problems raised by documents and booking changes. The spec's catalogue (spec 8) has none for these, so
 * their types, titles and statuses are chosen here, in the same shape (the API swaps the default errors
 * host for the configured one).
 */
import { problemType, type Problem } from '../../src/domain/problems.ts';

function make(slug: string, title: string, status: number, detail?: string, extra: Partial<Problem> = {}): Problem {
  const problem: Problem = { type: problemType(slug), title, status, ...extra };
  if (detail !== undefined) problem.detail = detail;
  return problem;
}

export const documentProblems = {
  /** 404: spec 2.15 hides the button when everything was free; the link answers the same. */
  noDocument: (kind: 'booking' | 'order') =>
    make('documents/no-document', 'No Invoice or Receipt', 404, `Nothing was charged for this ${kind}, so there is no invoice or receipt.`),
  /** 404: calendar files exist for dated bookings only (requests and applications have none). */
  noCalendar: () => make('documents/no-calendar', 'No Calendar File', 404, 'This booking has no date to add to a calendar.'),
  /** 409: the booking was cancelled before (nothing is released twice). */
  alreadyCancelled: () => make('booking/already-cancelled', 'Booking Already Cancelled', 409, 'This booking has already been cancelled.'),
  /** 409: spec 9 "Free cancellation N day(s) prior" — too late now. */
  cancellationWindowPassed: (days: number, deadlineText: string, educatorName: string) =>
    make(
      'booking/cancellation-window-passed',
      'Cancellation Window Has Passed',
      409,
      `Free cancellation ends ${days} ${days === 1 ? 'day' : 'days'} before the start (${deadlineText}). Please contact ${educatorName}.`,
    ),
  /** 409: the educator offers no online cancellation for this booking. */
  cancellationNotAvailable: (educatorName: string) =>
    make('booking/cancellation-not-available', 'Cancellation Not Available', 409, `This booking cannot be cancelled online. Please contact ${educatorName}.`),
};
