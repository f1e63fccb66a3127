import { join } from "node:path";
import { type ContractStore, createFileStore, MemoryStore } from "@agui-outbox/server";
import { GatewayError, GatewayErrorKind } from "./gateway-error";
import { InProcessThreadLock, type ThreadLock } from "./thread-lock";

/** Where the record lives, as the command line names it. */
export type StoreSpec =
  | { readonly kind: "memory" }
  /** A folder: the store is one JSON file in it (one process only). */
  | { readonly kind: "file"; readonly dir: string }
  | { readonly kind: "postgres"; readonly connectionString: string };

/** `memory`, `file:<dir>` or `postgres://…` (also `postgresql://…`). */
export function parseStoreSpec(text: string): StoreSpec {
  if (text === "memory") return { kind: "memory" };
  if (text.startsWith("file:") && text.length > "file:".length) return { kind: "file", dir: text.slice(5) };
  if (/^postgres(ql)?:\/\//.test(text)) return { kind: "postgres", connectionString: text };
  throw new GatewayError(
    GatewayErrorKind.invalidOptions,
    "--store must be memory, file:<dir> or postgres://…",
  );
}

/** Opens the store; Postgres is loaded only when asked for, so `pg` stays an optional peer. */
export async function openStore(spec: StoreSpec): Promise<ContractStore> {
  switch (spec.kind) {
    case "memory":
      return new MemoryStore();
    case "file":
      return createFileStore({ path: join(spec.dir, "gateway-store.json") });
    case "postgres": {
      const { PostgresStore } = await import("@agui-outbox/server/postgres");
      return PostgresStore.open({ connectionString: spec.connectionString });
    }
  }
}

/** One run per thread: across every replica on the database for Postgres, else in this process. */
export async function openThreadLock(spec: StoreSpec): Promise<ThreadLock> {
  if (spec.kind !== "postgres") return new InProcessThreadLock();
  const { PostgresThreadLock } = await import("./postgres-thread-lock");
  return new PostgresThreadLock({ connectionString: spec.connectionString });
}
