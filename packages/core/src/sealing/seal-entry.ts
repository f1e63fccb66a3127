import type { OutboxEntry } from "../outbox/entry";

/** The answer's fields; the rest stays clear so a store can index and compare-and-set what it cannot open. */
export const SEALED_FIELDS = ["body", "decision", "question", "responseSchema", "recordedDecisions"] as const;
type SealedField = (typeof SEALED_FIELDS)[number];

export interface SealedPayload {
  readonly v: 1;
  readonly iv: Uint8Array;
  readonly data: ArrayBuffer;
}

/** An entry as stored with sealing on. */
export type SealedRecord = Omit<OutboxEntry, SealedField> & { readonly sealed: SealedPayload };

export function isSealedRecord(value: OutboxEntry | SealedRecord): value is SealedRecord {
  return "sealed" in value && typeof value.sealed === "object" && value.sealed !== null;
}

// Binds the ciphertext to its entry: copied onto another key or namespace, it does not open.
function additionalData(entry: {
  readonly namespace: string;
  readonly key: string;
}): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`agui-outbox\u0000${entry.namespace}\u0000${entry.key}`);
}

export async function sealEntry(entry: OutboxEntry, key: CryptoKey, crypto: Crypto): Promise<SealedRecord> {
  const clear: Record<string, unknown> = { ...entry };
  const secret: Record<string, unknown> = {};
  for (const field of SEALED_FIELDS) {
    if (field in clear) secret[field] = clear[field];
    delete clear[field];
  }
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(entry) },
    key,
    new TextEncoder().encode(JSON.stringify(secret)),
  );
  return { ...(clear as Omit<OutboxEntry, SealedField>), sealed: { v: 1, iv, data } };
}

/** The entry as written; rejects when the key does not open it. */
export async function openEntry(record: SealedRecord, key: CryptoKey, crypto: Crypto): Promise<OutboxEntry> {
  const { sealed, ...clear } = record;
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(sealed.iv), additionalData: additionalData(record) },
    key,
    sealed.data,
  );
  const secret = JSON.parse(new TextDecoder().decode(plain)) as Pick<OutboxEntry, SealedField>;
  return { ...clear, ...secret };
}
