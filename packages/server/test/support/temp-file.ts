import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A maker of file paths, each in a fresh temporary folder that the calling test file removes at its end. */
export function tempFiles(prefix: string, name: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    made.push(mkdtempSync(join(tmpdir(), prefix)));
    return join(made.at(-1) as string, name);
  };
}
