import { describe, expect, it } from 'vitest';
import {
  enquiryCourseDetails,
  enquiryHelperText,
  enquirySuccessText,
  requiredEnquiryFields,
  showBackToCourse,
  validateEnquiry,
} from '../../src/domain/enquiry.ts';

const valid = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '07911123456', message: 'Hi' };

describe('enquiry and waitlist rules (spec 5)', () => {
  it('required fields', () => {
    expect(requiredEnquiryFields('message')).toEqual(['first_name', 'last_name', 'email', 'phone', 'message']);
    expect(requiredEnquiryFields('message', true)).toContain('enquiry_type');
    expect(requiredEnquiryFields('waitlist')).toEqual(['first_name', 'last_name', 'email', 'phone']);
  });
  it('a complete enquiry is valid', () => {
    expect(validateEnquiry(valid, 'message')).toEqual([]);
    expect(validateEnquiry({ ...valid, message: '' }, 'waitlist')).toEqual([]);
  });
  it('reports each missing field', () => {
    expect(validateEnquiry({ ...valid, message: ' ' }, 'message')).toEqual([{ key: 'message', name: 'Message', message: 'is required' }]);
    expect(validateEnquiry(valid, 'message', true)).toEqual([{ key: 'enquiry_type', name: 'Enquiry Type', message: 'is required' }]);
    expect(validateEnquiry({}, 'waitlist').map((p) => p.key)).toEqual(['first_name', 'last_name', 'email', 'phone']);
  });
  it('checks email and phone with the spec 5 messages', () => {
    expect(validateEnquiry({ ...valid, email: 'ada@localhost' }, 'message')).toEqual([{ key: 'email', name: 'Email', message: 'Invalid email domain.' }]);
    expect(validateEnquiry({ ...valid, phone: '123' }, 'message')).toEqual([{ key: 'phone', name: 'Telephone', message: 'Phone number is too short.' }]);
  });
});

describe('query parameters (spec 2.9 / 2.10)', () => {
  it('course details attached only when both are present', () => {
    expect(enquiryCourseDetails({ course_ref: 'c1', course_name: 'Pottery' })).toEqual({ course_ref: 'c1', course_name: 'Pottery' });
    expect(enquiryCourseDetails({ course_ref: 'c1' })).toBeNull();
    expect(enquiryCourseDetails({ course_name: 'Pottery' })).toBeNull();
  });
  it('Back to course needs course_ref and educator_slug', () => {
    expect(showBackToCourse({ course_ref: 'c1', educator_slug: 'acme' })).toBe(true);
    expect(showBackToCourse({ course_ref: 'c1' })).toBe(false);
  });
});

describe('texts (spec 2.9 / 2.10)', () => {
  it('helper and success texts', () => {
    expect(enquiryHelperText('Acme')).toBe('Contact Acme to ask any questions or clarify any details.');
    expect(enquirySuccessText('message', 'Ada')).toEqual({
      title: 'Thanks for contacting us',
      body: 'Thank you Ada for contacting us. We have received your message and someone will be in touch soon.',
    });
    expect(enquirySuccessText('waitlist', 'Ada')).toEqual({
      title: "You're on the waitlist!",
      body: 'Thank you Ada for joining the waitlist. You will be notified when new dates or spaces become available.',
    });
  });
});
