/**
 * The educator's collections as the admin edits them (docs/admin.md "Collections"; spec 3 "Collection": name,
 * image, published; without an image the public pages paint a gradient from the name and id). Its courses are
 * kept in the order given. Pure: no I/O.
 */
import { z } from '../zod.ts';
import { refId, text, webUrl, wholeNumber } from './catalogue-input.ts';

export const MAX_COLLECTION_COURSES = 200;

const collectionShape = {
  name: text(80),
  imageUrl: z.preprocess((v) => (v === '' || v === undefined ? null : v), webUrl.nullable()),
  published: z.boolean().default(false),
  courseIds: z.array(refId).max(MAX_COLLECTION_COURSES, `must be at most ${MAX_COLLECTION_COURSES}`).default([]),
};

function checkCourses(v: { courseIds: string[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  v.courseIds.forEach((id, i) => {
    if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['courseIds', i], message: 'is already in this collection' });
    seen.add(id);
  });
}

export const collectionInputSchema = z.object(collectionShape).superRefine(checkCourses);
export type CollectionInput = z.output<typeof collectionInputSchema>;
export const collectionUpdateSchema = z.object({ revision: wholeNumber(1, Number.MAX_SAFE_INTEGER), ...collectionShape }).superRefine(checkCourses);
