import type { IncomingMessage } from "node:http";
import { idProblem } from "../engine/ids";
import type { Identify } from "../engine/options";

/** The request's identity (undefined: the anonymous one, when the app has no `identify`), or why none. */
export type IdentifyResult =
  | { readonly ok: true; readonly identity: string | undefined }
  | { readonly ok: false; readonly message: string };

export async function identifyRequest(
  identify: Identify | undefined,
  request: IncomingMessage,
): Promise<IdentifyResult> {
  if (identify === undefined) return { ok: true, identity: undefined };
  const identity = await identify(request);
  if (identity === undefined)
    return { ok: false, message: "this request carries no identity the server accepts" };
  const problem = idProblem(identity, "the identity");
  // The app's verifier returned something no store can scope by: a bug of the app, not of the caller.
  if (problem !== undefined) throw new Error(`identify returned an unusable identity: ${problem}`);
  return { ok: true, identity };
}
