/** The "Add to Calendar" file of a booking (spec 7 GET /bookings/{bookingId}/ical), with ical-generator. */
import ical from 'ical-generator';

export interface CalendarBooking {
  id: string;
  courseName: string;
  educatorName: string;
  start: number;
  end: number;
  location?: string | null;
  url?: string | null;
  createdAt: number;
}

export function bookingCalendar(booking: CalendarBooking): string {
  const calendar = ical({ name: booking.courseName, prodId: { company: 'marketplace', product: 'checkout', language: 'EN' } });
  calendar.createEvent({
    id: `${booking.id}@marketplace`,
    start: new Date(booking.start * 1000),
    end: new Date(booking.end * 1000),
    stamp: new Date(booking.createdAt * 1000),
    summary: `${booking.courseName} with ${booking.educatorName}`,
    description: `Booking reference: ${booking.id}`,
    location: booking.location ?? undefined,
    url: booking.url ?? undefined,
    timezone: 'Europe/London',
  });
  return calendar.toString();
}
