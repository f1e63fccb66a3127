// The README's quickstart is this directory's quickstart.tsx, byte for byte; the
// type check compiles it and this test runs it, so the documented code cannot drift.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import readme from "../../README.md?raw";
import { FakeAgent } from "../test-util/fake-agent";
import { makeClient } from "../test-util/render-client";
import { App, createClient } from "./quickstart";
import source from "./quickstart.tsx?raw";

afterEach(cleanup);

test("the README's quickstart is quickstart.tsx", () => {
  const block = /## Quickstart\n[\s\S]*?```tsx\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBe(source);
});

test("the quickstart runs: ask, answer in the tool's own card, applied", async () => {
  expect(createClient("user-1").namespace).toBe("user-1");
  const agent = new FakeAgent();
  const client = makeClient(agent);
  render(<App client={client} />);
  fireEvent.click(screen.getByRole("button", { name: "Ask" }));
  await screen.findByText("Deploy to prod?");
  fireEvent.click(screen.getByRole("button", { name: "Deploy" }));
  await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Applied."));
  expect(screen.getByRole("listitem").textContent).toBe("applied (1 attempts)");
  expect(agent.count("resume")).toBe(1);
  client.dispose();
});
