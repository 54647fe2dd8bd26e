/**
 * The course an enquiry (spec 2.9) or waitlist entry (spec 2.10) is about, from the form page's address
 * (?course_ref=&course_name=&educator_slug=&occurrence=): the course sent with it and the "Back to course" link.
 */
import { enquiryCourseDetails, showBackToCourse, type EnquiryKind } from './enquiry.ts';
import { courseLink, type Link, type LinkTarget } from './links.ts';
import type { AppContext } from './app-context.ts';

export interface EnquiryQuery {
  course_ref: string | null;
  course_name: string | null;
  educator_slug: string | null;
  occurrence: string | null;
}

export interface EducatorCourse { id: string; slug: string; name: string }

/** The educator's course a course_ref names, by id or slug. */
export function findCourse(courses: ReadonlyArray<EducatorCourse>, ref: string | null): EducatorCourse | null {
  return ref ? courses.find((c) => c.id === ref || c.slug === ref) ?? null : null;
}

/**
 * The course sent with the form: a message names one only when both course_ref and course_name are present
 * (spec 2.9); a waitlist entry names what it has, the educator's course winning over the address's words.
 */
export function enquiryCourse(kind: EnquiryKind, params: EnquiryQuery, courses: ReadonlyArray<EducatorCourse>): { courseSlug: string | null; courseName: string | null } {
  if (kind === 'message') {
    const attached = enquiryCourseDetails(params);
    if (!attached) return { courseSlug: null, courseName: null };
    return { courseSlug: findCourse(courses, attached.course_ref)?.slug ?? attached.course_ref, courseName: attached.course_name };
  }
  const course = findCourse(courses, params.course_ref);
  return { courseSlug: course?.slug ?? params.course_ref, courseName: course?.name ?? params.course_name };
}

/** Spec 2.10: the waitlist's "Back to course" link, when the address names the course and its educator. */
export function backToCourseLink(
  kind: EnquiryKind,
  params: EnquiryQuery,
  courses: ReadonlyArray<EducatorCourse>,
  links: { context: AppContext } & Pick<LinkTarget, 'currentEducatorSlug' | 'host' | 'protocol'>,
): Link | null {
  if (kind !== 'waitlist' || !showBackToCourse(params) || !params.educator_slug) return null;
  return courseLink(links.context, {
    educatorSlug: params.educator_slug,
    courseSlug: findCourse(courses, params.course_ref)?.slug ?? params.course_ref ?? '',
    occurrenceId: params.occurrence,
    currentEducatorSlug: links.currentEducatorSlug,
    host: links.host,
    protocol: links.protocol,
  });
}
