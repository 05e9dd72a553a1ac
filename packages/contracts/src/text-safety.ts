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

/** The unsafe characters above, less the line breaks and tabs a multi-line field (a reason, a notice's content) may hold. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafeInMultiline = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

/**
 * Characters that show nothing: format characters (zero-width spaces and joiners, the word joiner,
 * the soft hyphen), the Hangul fillers (U+3164 is a favourite for "blank" names), the braille blank.
 */
const invisibleChar = /[\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u180E]/u;
const invisibleOrSpace = /^[\s\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u180E]*$/u;

/**
 * What is wrong with free text a person typed, or null: `unsafe` for control characters and
 * bidirectional controls (line breaks and tabs allowed where `multiline`), `invisible` for text
 * made only of characters that show nothing (a blank name of fillers and zero-width spaces);
 * spaces alone are left to each field's own "required" rule.
 */
export function freeTextProblem(text: string, multiline: boolean): 'unsafe' | 'invisible' | null {
  if ((multiline ? unsafeInMultiline : unsafeChars).test(text)) return 'unsafe';
  if (invisibleChar.test(text) && invisibleOrSpace.test(text)) return 'invisible';
  return null;
}
