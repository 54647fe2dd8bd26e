/**
 * Educator-provided HTML (bio, description, FAQ answers) is sanitised at build time (DESIGN 3).
 * Server side only.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote',
    'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'div', 'hr', 'sup', 'sub', 'code', 'pre',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // Educator headings become h3 and below so a page keeps one h1 and its own h2 sections.
  transformTags: {
    h1: 'h3',
    h2: 'h3',
    a: (tagName, attribs) => {
      const external = /^https?:/i.test(attribs.href ?? '');
      return {
        tagName,
        attribs: external ? { ...attribs, target: '_blank', rel: 'noopener nofollow ugc' } : { ...attribs },
      };
    },
  },
};

/** Safe HTML for set:html. */
export function sanitize(html: string | null | undefined): string {
  if (!html) return '';
  return sanitizeHtml(html, OPTIONS);
}
