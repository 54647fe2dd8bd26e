/**
 * The course editor (/courses/new and /courses/{courseId} on the admin host): every field of a course, its offers,
 * add-ons, durations, images, FAQs and lessons; save, publish / unpublish, duplicate, delete, preview in the three
 * contexts; after each save the publish status ("Live on the marketplace, your site and your embed") and the
 * course's history. The form is checked with the server's own schema and rules before it is sent
 * (src/domain/admin/course-form.ts); what the server answers lands beside each field, and a general problem in an
 * alert that takes the focus.
 *
 * The state and calls are useCourseEditor's, the texts and problem handling src/domain/admin/course-editor.ts's;
 * the form's sections are CourseSections, the status, alert and actions CourseEditorParts.
 */
import { useEffect, useState } from 'react';
import PublishStatus from '../PublishStatus.tsx';
import { adminPath } from '../../../domain/admin-nav.ts';
import { useCourseEditor } from './useCourseEditor.ts';
import { CourseActions, CourseAlertBox, CourseSummary } from './CourseEditorParts.tsx';
import {
  BasicsSection, BookingSection, CapacitySection, ContentSection, DescriptionSection, FaqsSection, ImagesSection, LocationSection, PricingSection,
} from './CourseSections.tsx';
import CourseHistory from './CourseHistory.tsx';
import './courses.css';

interface Props {
  educatorId: string;
  /** null: a new course. */
  courseId: string | null;
}

export default function CourseEditor({ educatorId, courseId: initialId }: Props) {
  const editor = useCourseEditor(educatorId, initialId);
  const { courseId, data, options, draft: d, errors, change, savedAt } = editor;
  const [duplicated, setDuplicated] = useState(false);

  useEffect(() => {
    setDuplicated(new URLSearchParams(window.location.search).get('duplicated') === '1');
  }, []);

  if (editor.loadFailed) {
    return (
      <div className="admin-status" data-kind="error" role="alert">
        <p>{editor.loadFailed}</p>
        <p><a href={adminPath('/courses', educatorId)}>Back to your courses</a></p>
      </div>
    );
  }
  if (!options || (courseId && !data)) return <p role="status">Loading the course…</p>;

  const published = !!data?.course.published;
  const sections = { d, errors, change };

  return (
    <div className="course-editor">
      {duplicated ? (
        <p className="admin-status">This is a copy, saved as a draft. Change its name and web address, then publish it.</p>
      ) : null}

      {courseId && data ? <CourseSummary educatorId={educatorId} courseId={courseId} data={data} /> : null}

      <CourseAlertBox alert={editor.alert} alertRef={editor.alertRef} onReload={() => { editor.setAlert(null); void editor.load(); }} />

      <form
        noValidate aria-label={courseId ? 'Course' : 'New course'}
        onSubmit={(ev) => {
          ev.preventDefault();
          void editor.save();
        }}
      >
        <BasicsSection {...sections} options={options} />
        <ImagesSection {...sections} educatorId={educatorId} />
        <DescriptionSection {...sections} />
        <PricingSection {...sections} />
        <CapacitySection {...sections} minimumSpaces={data?.minimumSpaces} />
        <LocationSection {...sections} options={options} />
        <BookingSection {...sections} options={options} />
        <FaqsSection {...sections} />
        <ContentSection {...sections} />
        <CourseActions
          courseId={courseId} courseName={data?.course.name} published={published} dirty={editor.dirty} busy={editor.busy} status={editor.status}
          confirmDelete={editor.confirmDelete} setConfirmDelete={editor.setConfirmDelete}
          onPublish={(on) => void editor.setPublished(on)} onDuplicate={() => void editor.duplicate()} onRemove={() => void editor.remove()}
        />
      </form>

      {courseId ? <PublishStatus educatorId={educatorId} courseId={courseId} savedAt={savedAt} /> : null}
      {courseId && savedAt !== null && !published ? (
        <p className="hint">This course is a draft: it is on none of your pages until you publish it. The previews above show how it will look.</p>
      ) : null}

      {courseId ? (
        <section className="course-section" aria-labelledby="sec-history">
          <h2 id="sec-history">History</h2>
          <CourseHistory educatorId={educatorId} courseId={courseId} refresh={savedAt} />
        </section>
      ) : null}
    </div>
  );
}
