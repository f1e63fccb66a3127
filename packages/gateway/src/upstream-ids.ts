/**
 * The id the upstream sees for a caller's thread or run. Two identities may
 * use the same threadId; the upstream knows nothing of identities, so each
 * identity's ids are prefixed (escaped, so the prefix holds no `/`) and one
 * person's thread never reaches another's history. The anonymous identity (no
 * `identify`) keeps its ids as they are.
 */
export function upstreamId(identity: string | undefined, id: string): string {
  return identity === undefined ? id : `${encodeURIComponent(identity)}/${id}`;
}
