import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { MockState } from "../state/mock-state";
import type { MockStore } from "./mock-store";

/**
 * One JSON document, replaced atomically on every save (write a temporary file,
 * fsync it, rename it over the old one), so a killed process leaves either the
 * previous state or the new one, never half of each.
 */
export class FileStore implements MockStore {
  readonly #path: string;
  readonly #tempPath: string;

  constructor(path: string) {
    this.#path = path;
    this.#tempPath = `${path}.${process.pid}.tmp`;
    mkdirSync(dirname(path), { recursive: true });
  }

  load(): MockState | undefined {
    let text: string;
    try {
      text = readFileSync(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || (parsed as { version?: unknown }).version !== 1) {
      throw new Error(`${this.#path} is not a mock-server state file (version 1); delete it to start fresh`);
    }
    return parsed as MockState;
  }

  save(state: MockState): void {
    const fd = openSync(this.#tempPath, "w");
    try {
      writeSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(this.#tempPath, this.#path);
  }
}
