import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { emptyDocument, type MemoryDocument, MemoryStore } from "./memory-store";
import type { StoreLimits } from "./run-bounds";

const FORMAT = "agui-outbox-contract-store";

interface FileContents {
  readonly format: typeof FORMAT;
  readonly document: MemoryDocument;
}

export interface FileStoreOptions {
  /** The JSON file; its folder is created when missing. */
  readonly path: string;
  /** @default Date.now */
  readonly now?: () => number;
  /**
   * Caps on run logs, as the memory store's but smaller: every change rewrites
   * the whole file, so its size is each write's cost.
   * @default { maxBytes: 16 MiB, maxBytesPerIdentity: 4 MiB, maxRuns: 10000, maxRunsPerIdentity: 1000 }
   */
  readonly limits?: StoreLimits;
}

const FILE_LIMITS: Required<StoreLimits> = {
  maxBytes: 16 * 1024 * 1024,
  maxBytesPerIdentity: 4 * 1024 * 1024,
  maxRuns: 10_000,
  maxRunsPerIdentity: 1_000,
};

/**
 * A development store: the memory store, written whole to one JSON file after
 * every change (temporary file, fsync, rename), so a killed process leaves
 * the previous state or the new one, never half of each. A write costs the
 * whole file, which its caps keep small; one process per file. For production
 * and replicas use the Postgres store.
 */
export function createFileStore(options: FileStoreOptions): MemoryStore {
  const { path } = options;
  const tempPath = `${path}.${process.pid}.tmp`;
  mkdirSync(dirname(path), { recursive: true });
  const document = readDocument(path);
  return new MemoryStore({
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(document === undefined ? {} : { document }),
    limits: { ...FILE_LIMITS, ...options.limits },
    onChange: (current) => {
      const contents: FileContents = { format: FORMAT, document: current };
      const fd = openSync(tempPath, "w");
      try {
        writeSync(fd, JSON.stringify(contents));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tempPath, path);
    },
  });
}

function readDocument(path: string): MemoryDocument | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<FileContents> | null;
  if (parsed?.format !== FORMAT || parsed.document?.version !== 1) {
    throw new Error(
      `${path} is not an agui-outbox contract store file (version 1); delete it to start fresh`,
    );
  }
  // Files written before background runs were kept have no background tables yet.
  return { ...emptyDocument(), ...parsed.document };
}
