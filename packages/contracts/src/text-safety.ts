/**
 * Free text that members type and operators later read (depositor names, links) and that leaves
 * the system again in screens and CSV files. One definition, used at the BFF's edge and by any
 * service or screen that needs it.
 */

/**
 * C0 and C1 control characters (CR, LF, NUL, ESC …) and the bidirectional controls that make text
 * display differently from what it is (U+202E turns "exe.txt" into "txt.exe"). Tabs are refused too:
 * no field here needs one.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafeChars = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

export function hasUnsafeChars(text: string): boolean {
  return unsafeChars.test(text);
}

/** A bare profile name: letters (any script), digits, `.`, `_`, `-`, an optional leading `@`. */
const profileName = /^@?[\p{L}\p{N}._-]{1,100}$/u;

/**
 * An order link is either an http(s) address or a bare profile name (spec §5: a name is linked
 * under the platform's profile address). `javascript:`, `data:` and friends, and anything with
 * control characters or spaces, are refused.
 */
export function isAcceptableLink(link: string): boolean {
  const value = link.trim();
  if (value === '' || hasUnsafeChars(value) || /\s/.test(value)) return false;
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }
  return !value.includes(':') && profileName.test(value);
}
