import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect, test } from "vitest";
import { emptyState } from "../src/state/mock-state";
import { FileStore } from "../src/store/file-store";
import { MemoryStore } from "../src/store/memory-store";
import { tempStatePath } from "./support/harness";

test("the file store starts empty, then reads back exactly what it saved", () => {
  const path = tempStatePath();
  const store = new FileStore(path);
  expect(store.load()).toBeUndefined();
  const state = emptyState();
  state.ledger.push({
    threadId: "t",
    toolCallId: "c",
    name: "deploy_change",
    args: { target: "prod" },
    at: "x",
  });
  store.save(state);
  expect(new FileStore(path).load()).toEqual(state);
});

test("a save replaces the document whole and leaves no temporary file behind", () => {
  const path = tempStatePath();
  const store = new FileStore(path);
  const first = emptyState();
  store.save(first);
  const second = emptyState();
  second.threads.t = { threadId: "t", messages: [], createdAt: 1 };
  store.save(second);
  expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(second);
  expect(readdirSync(dirname(path))).toEqual(["state.json"]);
});

test("a file that is not a state document is refused with a clear error, not silently replaced", () => {
  const path = tempStatePath();
  writeFileSync(path, JSON.stringify({ hello: "world" }));
  expect(() => new FileStore(path).load()).toThrow(/not a mock-server state file/);
});

test("the memory store keeps nothing across instances", () => {
  const store = new MemoryStore();
  store.save(emptyState());
  expect(new MemoryStore().load()).toBeUndefined();
});
