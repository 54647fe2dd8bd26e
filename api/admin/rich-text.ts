/**
 * The rich text an educator writes in the admin (the bio, the terms), kept to a small safe set of tags when it is
 * saved: paragraphs, line breaks, bold, italic, underline, lists, small headings, quotes and links (http(s), mailto,
 * tel). Everything else is dropped with its attributes (scripts and styles with their content). The public pages
 * sanitise again when they render (src/lib/html.ts), so an educator row written any other way is safe too.
 */
import sanitizeHtml from 'sanitize-html';

export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'h3', 'h4', 'blockquote', 'a'] as const;

const SAFE_HREF = /^(https?:\/\/[^/\s]|mailto:|tel:)/i;

const OPTIONS: sanitizeHtml.IOptions = {
  // span only as the stand-in for a link that is dropped (below); removed after, keeping its text.
  allowedTags: [...RICH_TEXT_TAGS, 'span'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An editor's <div> lines and <h1>/<h2> headings keep their meaning in the allowed set.
  transformTags: {
    div: 'p', h1: 'h3', h2: 'h3', h5: 'h4', h6: 'h4',
    // A link to anything but the web, mail or a phone keeps its text and loses the link.
    a: (tagName, attribs): sanitizeHtml.Tag => (SAFE_HREF.test(attribs.href?.trim() ?? '') ? { tagName, attribs: { href: attribs.href!.trim() } } : { tagName: 'span', attribs: {} }),
  },
};

/** Safe HTML of the allowed set; '' for nothing but white space and empty paragraphs. */
export function sanitizeRichText(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS).replace(/<\/?span>/g, '').trim();
  const visible = clean.replace(/<br\s*\/?>/g, '').replace(/<\/?p>/g, '').replace(/&nbsp;/g, ' ').trim();
  return visible ? clean : '';
}
