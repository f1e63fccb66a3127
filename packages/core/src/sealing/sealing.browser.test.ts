import { deleteDB } from "idb";
import { afterEach, expect, test } from "vitest";
import { rawDatabaseText } from "../../test/support/raw-database";
import { createIsolatedClient } from "../../testing/isolated-client";
import type { OutboxClient } from "../client/client-types";
import { sealAnswers } from "../sealing";

// Real Chromium: IndexedDB as the browser stores it, WebCrypto as it seals.
const SECRET = "canary-b81c-edited-target";
const THREAD = "t-sealed";
const INTERRUPT = "call-1";
const dbName = `sealing-${Date.now()}`;
const clients: OutboxClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  await deleteDB(dbName);
});

const sse = (events: readonly object[]) =>
  new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });

/**
 * A server without the contract that asks one approval; each resume it is
 * sent is recorded by idempotency key and never answered (the page closes first).
 */
function agent(resumes: Map<string, string[]>, onResume: () => void) {
  return async (_input: string, init?: RequestInit): Promise<Response> => {
    if (!init?.method || init.method === "GET") return new Response("", { status: 404 });
    const key = new Headers(init.headers).get("idempotency-key");
    if (key) {
      resumes.set(key, [...(resumes.get(key) ?? []), String(init.body)]);
      onResume();
      return new Promise<Response>(() => {});
    }
    const runId = `run-${resumes.size}-${Math.random()}`;
    return sse([
      { type: "RUN_STARTED", threadId: THREAD, runId },
      {
        type: "RUN_FINISHED",
        threadId: THREAD,
        runId,
        outcome: {
          type: "interrupt",
          interrupts: [{ id: INTERRUPT, reason: "tool_call", toolCallId: INTERRUPT, message: "Deploy?" }],
        },
      },
    ]);
  };
}

/** A page over the one database; `resumed` settles when its first resume is sent. */
function page(resumes: Map<string, string[]>, sealing: ReturnType<typeof sealAnswers>) {
  let onResume = () => {};
  const resumed = new Promise<void>((resolve) => {
    onResume = resolve;
  });
  const client = createIsolatedClient({
    url: "/agent",
    namespace: "user-1",
    dbName,
    indexedDB,
    sealing,
    deps: { fetch: agent(resumes, () => onResume()) },
  });
  clients.push(client);
  return { client, resumed };
}

test("IndexedDB holds no answer in the clear; without the key it is kept and reported; with it, the reload sends it", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const firstSent = new Map<string, string[]>();
  const sealing = sealAnswers();
  sealing.setKey(key);
  const { client: first, resumed } = page(firstSent, sealing);
  await first.start();
  await first.thread(THREAD).send("deploy please");
  const entry = await first.answer({
    threadId: THREAD,
    interruptId: INTERRUPT,
    approved: true,
    editedArgs: { target: SECRET },
  });
  await resumed;
  expect(firstSent.get(entry.key)?.[0]).toContain(SECRET);
  first.dispose();

  const raw = await rawDatabaseText(indexedDB, dbName);
  expect(raw).toContain(entry.key);
  expect(raw).not.toContain(SECRET);
  expect(raw).not.toContain("editedArgs");

  // A reload before the key is back: kept sealed, reported, nothing sent.
  const locked = sealAnswers();
  const lockedSent = new Map<string, string[]>();
  const { client: second } = page(lockedSent, locked);
  await second.start();
  expect(second.outbox.getState().entries).toEqual([]);
  expect(second.outbox.getState().sealed).toEqual([
    expect.objectContaining({ key: entry.key, interruptId: INTERRUPT, reason: "key_missing" }),
  ]);
  expect(lockedSent.size).toBe(0);
  second.dispose();
  expect(await rawDatabaseText(indexedDB, dbName)).toContain(entry.key);

  // A reload with the key: the same bytes, under the same key.
  const unlocked = sealAnswers();
  unlocked.setKey(key);
  const resent = new Map<string, string[]>();
  const third = page(resent, unlocked);
  await third.client.start();
  await third.resumed;
  expect([...resent.keys()]).toEqual([entry.key]);
  expect(resent.get(entry.key)).toEqual([entry.body]);
  expect(await rawDatabaseText(indexedDB, dbName)).not.toContain(SECRET);
});
