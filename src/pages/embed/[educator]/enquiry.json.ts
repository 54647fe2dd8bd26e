/**
 * What the embed's enquiry shell (/embed/enquiry?educator={slug}) needs about one educator, built
 * at build time (src/lib/embed-enquiry.ts; the publisher writes the same).
 */
import type { APIRoute } from 'astro';
import { enquiryPaths, type EducatorPageProps } from '../../../lib/paths.ts';
import { embedEnquiryJson } from '../../../lib/embed-enquiry.ts';

export const prerender = true;

export function getStaticPaths() {
  return enquiryPaths('embed');
}

export const GET: APIRoute = ({ props }) =>
  new Response(embedEnquiryJson((props as EducatorPageProps).model), { headers: { 'content-type': 'application/json; charset=utf-8' } });
