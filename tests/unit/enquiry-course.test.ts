import { describe, expect, it } from 'vitest';
import { backToCourseLink, enquiryCourse, findCourse } from '../../src/domain/enquiry-course.ts';

const courses = [{ id: 'c1', slug: 'pottery-basics', name: 'Pottery basics' }];
const none = { course_ref: null, course_name: null, educator_slug: null, occurrence: null };
const links = { context: 'marketplace' as const, currentEducatorSlug: null, host: 'example.test', protocol: 'https' };

describe('the course an enquiry is about', () => {
  it('finds the educator\'s course by id or slug', () => {
    expect(findCourse(courses, 'c1')?.slug).toBe('pottery-basics');
    expect(findCourse(courses, 'pottery-basics')?.id).toBe('c1');
    expect(findCourse(courses, null)).toBeNull();
  });

  it('sends a course with a message only when both course_ref and course_name are present', () => {
    expect(enquiryCourse('message', { ...none, course_ref: 'c1' }, courses)).toEqual({ courseSlug: null, courseName: null });
    expect(enquiryCourse('message', { ...none, course_ref: 'c1', course_name: 'Typed name' }, courses)).toEqual({ courseSlug: 'pottery-basics', courseName: 'Typed name' });
  });

  it('sends what a waitlist entry has, the educator\'s course winning', () => {
    expect(enquiryCourse('waitlist', { ...none, course_ref: 'c1', course_name: 'Typed name' }, courses)).toEqual({ courseSlug: 'pottery-basics', courseName: 'Pottery basics' });
    expect(enquiryCourse('waitlist', { ...none, course_ref: 'other', course_name: 'Other' }, courses)).toEqual({ courseSlug: 'other', courseName: 'Other' });
  });

  it('links back to the course from the waitlist only', () => {
    const params = { ...none, course_ref: 'c1', educator_slug: 'clay-studio', occurrence: 'o1' };
    expect(backToCourseLink('waitlist', params, courses, links)).toEqual({ href: '/clay-studio/pottery-basics?occurrence=o1', newTab: false });
    expect(backToCourseLink('message', params, courses, links)).toBeNull();
    expect(backToCourseLink('waitlist', { ...params, educator_slug: null }, courses, links)).toBeNull();
  });
});
