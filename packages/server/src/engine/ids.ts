/**
 * The id rule for threadIds, runIds, Idempotency-Keys and identities: 1 to
 * {@link MAX_ID_LENGTH} characters, well-formed Unicode (no lone surrogate, so
 * it encodes to valid UTF-8), and no control character (U+0000–U+001F,
 * U+007F). Postgres cannot store a NUL, and U+001F is the separator of an
 * identity's scope, so both stores see the same ids.
 */
export const MAX_ID_LENGTH = 256;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;
// With the `u` flag a surrogate pair reads as one code point: only a lone surrogate matches.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Why `id` breaks the rule (naming `what`, never the value), or undefined when it keeps it. */
export function idProblem(id: string, what: string): string | undefined {
  if (id.length === 0) return `${what} must not be empty`;
  if (id.length > MAX_ID_LENGTH) return `${what} is longer than ${MAX_ID_LENGTH} characters`;
  if (LONE_SURROGATE.test(id)) return `${what} is not well-formed Unicode`;
  if (CONTROL.test(id)) return `${what} contains a control character`;
  return undefined;
}

/** A path segment's id, decoded and checked; malformed percent-encoding or bytes that are not UTF-8 break the rule. */
export function pathId(
  segment: string,
  what: string,
): { readonly ok: true; readonly id: string } | { readonly ok: false; readonly message: string } {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return { ok: false, message: `${what} in the path is not percent-encoded UTF-8` };
  }
  const problem = idProblem(id, what);
  return problem === undefined ? { ok: true, id } : { ok: false, message: problem };
}

/** `identity/` (escaped, so it holds no `/`) before a tool's idempotency key; nothing for the anonymous identity. */
export function identityPrefix(identity: string | undefined): string {
  return identity === undefined ? "" : `${encodeURIComponent(identity)}/`;
}
