/**
 * The "Add to Calendar" file of a booking (spec 7 GET /bookings/{bookingId}/ical), RFC 5545.
 *
 * Times are written in Europe/London with a VTIMEZONE (DTSTART;TZID=Europe/London:…), so a 10:00 class in
 * July stays 10:00 in every calendar, across BST and GMT. (ical-generator 10 writes TZID times in the
 * server's own zone unless it is handed a date-library object, and needs a separate generator for the
 * VTIMEZONE; writing the few lines here keeps the output exact.)
 * UID is the booking reference at the marketplace host, so a re-download updates the same event.
 */
import type { BookingView } from '../../db/queries/bookings.ts';
import { locationText } from '../../src/domain/locations.ts';
import { referenceText } from '../../src/domain/checkout/outcomes.ts';
import { baseHostname, type Config } from '../config.ts';
import { isoDate, zonedParts, zonedWallClock } from '../../src/domain/zone.ts';
import { TIME_ZONE, bookingPageUrl, deliveryLines, isCancelled } from './describe.ts';

export interface CalendarBooking {
  id: string;
  courseName: string;
  educatorName: string;
  start: number;
  end: number;
  location?: string | null;
  url?: string | null;
  description?: string | null;
  /** The host in the UID: '{bookingId}@{host}'. */
  uidHost: string;
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  /** DTSTAMP: when this version of the event was made. */
  stamp: number;
  /** Bumped when the event changes (a cancellation). */
  sequence?: number;
}

/**
 * Europe/London since 1996 (EU rules): BST from 01:00 UTC on the last Sunday of March,
 * GMT from 01:00 UTC (02:00 BST) on the last Sunday of October.
 */
export const EUROPE_LONDON_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/London',
  'X-LIC-LOCATION:Europe/London',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** Epoch seconds → '20260710T100000' (local time in Europe/London). */
export function londonDateTime(epoch: number): string {
  const p = zonedParts(epoch, TIME_ZONE);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${isoDate(p).replace(/-/g, '')}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
}

/**
 * DTSTART / DTEND: local London time with its TZID, except for the second run of the hour the clocks
 * repeat in October: RFC 5545 (3.3.5) reads a repeated local time as its first occurrence, so a 01:30 GMT
 * start would land an hour early; that instant is written in UTC instead.
 */
export function calendarTime(name: 'DTSTART' | 'DTEND', epoch: number): string {
  const p = zonedParts(epoch, TIME_ZONE);
  const readBack = zonedWallClock(p, p.hour * 3600 + p.minute * 60 + p.second, TIME_ZONE);
  return readBack === epoch ? `${name};TZID=${TIME_ZONE}:${londonDateTime(epoch)}` : `${name}:${utcDateTime(epoch)}`;
}

/** Epoch seconds → '20260710T090000Z'. */
export function utcDateTime(epoch: number): string {
  return new Date(epoch * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 5545 3.3.11 TEXT escaping. */
export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** RFC 5545 3.1: lines longer than 75 octets are folded (CRLF + one space), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

export function bookingCalendar(booking: CalendarBooking): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Course Marketplace//Bookings//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...EUROPE_LONDON_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${booking.id}@${booking.uidHost}`,
    `DTSTAMP:${utcDateTime(booking.stamp)}`,
    `SEQUENCE:${booking.sequence ?? 0}`,
    calendarTime('DTSTART', booking.start),
    calendarTime('DTEND', booking.end),
    `SUMMARY:${escapeText(`${booking.courseName} with ${booking.educatorName}`)}`,
    `STATUS:${booking.status}`,
    ...(booking.description ? [`DESCRIPTION:${escapeText(booking.description)}`] : []),
    ...(booking.location ? [`LOCATION:${escapeText(booking.location)}`] : []),
    ...(booking.url ? [`URL:${booking.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** Where the event takes place: 'Online', the address, or '{address} & Online' for hybrid (spec 5 delivery badge). */
export function calendarLocation(view: BookingView): string | null {
  if (view.occurrence) {
    const address = locationText(view.occurrence.address);
    if (view.occurrence.delivery === 'online') return 'Online';
    if (view.occurrence.delivery === 'hybrid') return address ? `${address} & Online` : 'Online';
    return address || null;
  }
  const lines = deliveryLines(view);
  return lines.length ? lines.join(', ') : null;
}

/** The calendar file of a dated booking; null when it has no date. */
export function calendarOfBooking(view: BookingView, config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL'>): string | null {
  if (view.start === null || view.end === null) return null;
  const cancelled = isCancelled(view);
  const url = bookingPageUrl(view, config);
  return bookingCalendar({
    id: view.id,
    courseName: view.course.name,
    educatorName: view.educator.name,
    start: view.start,
    end: view.end,
    location: calendarLocation(view),
    url,
    description: [referenceText('booking', view.id), `${view.spaces} ${view.spaces === 1 ? 'space' : 'spaces'}`, `View & Manage Booking: ${url}`].join('\n'),
    uidHost: baseHostname(config),
    status: cancelled ? 'CANCELLED' : view.status === 'awaiting-approval' ? 'TENTATIVE' : 'CONFIRMED',
    stamp: cancelled && view.cancellation ? Number(view.cancellation.cancelled_at) : view.createdAt,
    sequence: cancelled ? 1 : 0,
  });
}
