// `@agui-outbox/core/sealing`: answers sealed at rest, opt in per client.
//   const sealing = sealAnswers();
//   createOutboxClient({ url, namespace, sealing });
//   sealing.setKey(await keyFromYourServer()); // after sign-in
import { SealedStore } from "./sealing/sealed-store";
import type { SealingPlugin } from "./sealing/sealing-plugin";

export { type SealedEntry, SealedReason, type SealingPlugin } from "./sealing/sealing-plugin";

export interface SealAnswersOptions {
  /**
   * WebCrypto, for tests.
   * @default globalThis.crypto
   */
  readonly crypto?: Crypto;
}

/** The `sealing` option, and where the app hands it the signed-in user's key. */
export interface AnswerSealing extends SealingPlugin {
  /**
   * The signed-in user's AES-GCM key (`encrypt`, `decrypt`; may be non-extractable). Stored answers
   * open and send; `undefined` forgets it (sign-out): new answers are refused, stored ones stay sealed.
   */
  setKey(key: CryptoKey | undefined): void;
}

/** Seals every answer the client stores with the key given to `setKey`. */
export function sealAnswers(options: SealAnswersOptions = {}): AnswerSealing {
  let key: CryptoKey | undefined;
  const keyListeners = new Set<() => void>();
  return {
    wrap(store, report, onKey = () => {}) {
      keyListeners.add(onKey);
      return new SealedStore(store, {
        onSealed: (sealed) => report.setState({ sealed }),
        // A disposed client is told nothing more.
        onClose: () => keyListeners.delete(onKey),
        key: () => key,
        crypto: options.crypto ?? globalThis.crypto,
      });
    },
    setKey(next) {
      key = next;
      for (const onKey of keyListeners) onKey();
    },
  };
}
