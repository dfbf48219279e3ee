import DOMPurify from 'dompurify';

/** Tags a caption may keep (decision 050); everything else is removed, its text kept. */
export const CAPTION_TAGS = ['c', 'b', 'i', 'u', 'span', 'ruby', 'rt', 'br', 'v', 'lang'] as const;
const CAPTION_ATTRIBUTES = ['title', 'lang'];

/** "Fix capitalisation": all lower case but the first letter of the cue. */
export function fixCasing(text: string): string {
  const lower = text.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** A cue's text as the viewer reads it: optional casing fix, a standalone "i" → "I" (the cast caption too). */
export function captionText(text: string, options: { fixCapitalisation: boolean }): string {
  const out = options.fixCapitalisation ? fixCasing(text) : text;
  return out.replace(/(^|\s)i(?=\s|$|')/g, '$1I');
}

/**
 * A cue's text as safe HTML: `captionText`, newlines → <br>, then sanitised to the caption tags (no
 * scripts, handlers, links, styles or images survive).
 */
export function captionHtml(text: string, options: { fixCapitalisation: boolean }): string {
  return sanitizeCaption(captionText(text, options).replace(/\r?\n/g, '<br>'));
}

export function sanitizeCaption(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...CAPTION_TAGS],
    ALLOWED_ATTR: CAPTION_ATTRIBUTES,
    // Unknown WebVTT tags (<c.yellow>, <v Bob>) are not HTML: keep their text.
    KEEP_CONTENT: true,
  });
}
