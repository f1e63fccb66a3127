// A POST with a JSON body to another origin needs a CORS preflight, which the
// browser caches; `cache: "no-store"` on the request makes Chromium send the
// preflight again before every run (measured: 10 preflights for 10 posts, 1
// without it). A POST's answer is never served from the HTTP cache anyway.
import { expect, test } from "vitest";
import { makeClient, startHarness } from "./harness";

test("run requests leave the cache mode to the browser, so a preflight is reused", async () => {
  const harness = await startHarness();
  const posts: RequestInit[] = [];
  const client = makeClient(harness, {
    deps: {
      fetch: (input, init) => {
        if (init?.method === "POST") posts.push(init);
        return fetch(input, init);
      },
    },
  });
  await client.start();
  const thread = client.thread("t-cache-mode");
  await thread.hydrate();
  await thread.send("hello");
  client.dispose();
  expect(posts).toHaveLength(2);
  expect(posts.map((init) => init.cache)).toEqual([undefined, undefined]);
});
