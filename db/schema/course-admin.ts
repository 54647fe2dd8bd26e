/** Tables of the educator admin's courses (migration 0245) and the educators' uploaded images (migration 0291). */

/** An uploaded course image, resized and re-encoded (api/admin/course-images.ts). */
export interface CourseImagesTable {
  id: string;
  educator_id: string;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  /** The image's bytes, base64. */
  bytes_b64: string;
  sha256: string;
  created_by: string | null;
  created_at: number;
}

/** A logo or cover an educator uploaded, scaled and re-encoded (api/admin/uploads.ts; migration 0291). */
export interface EducatorImagesTable {
  /** The address under /images/uploads/: `educators/{educatorId}/{kind}-{hash}.webp`. */
  path: string;
  educator_id: string;
  kind: string;
  content_type: string;
  byte_size: number;
  /** The image's bytes, base64. */
  bytes_b64: string;
  sha256: string;
  created_by: string | null;
  created_at: number;
}

/** A deleted course kept for the bookings, orders or requests it had (api/admin/courses.ts). */
export interface ArchivedCoursesTable {
  course_id: string;
  educator_id: string;
  archived_by: string | null;
  archived_at: number;
}

export interface CourseAdminTables {
  course_images: CourseImagesTable;
  archived_courses: ArchivedCoursesTable;
  educator_images: EducatorImagesTable;
}
