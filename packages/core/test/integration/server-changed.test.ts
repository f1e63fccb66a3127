// The server changed under the page (a deploy, the demo's mode switch): a run's stream
// that speaks unlike the known kind — event ids (cursors) from a server taken for one
// without the contract, none from a contract server — makes the client read its
// capabilities again, both ways, with no reload.
import { expect, test } from "vitest";
import { askForDeployment, makeClient, startHarness } from "./harness";

async function setMode(url: string, mode: string): Promise<void> {
  const response = await fetch(`${url}/__mode`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ mode }),
  });
  if (!response.ok) throw new Error(`mode refused: ${response.status}`);
}

function kindBecomes(client: ReturnType<typeof makeClient>, kind: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const state = client.connection.getState();
      if (state.serverKind === kind && state.link.name === "connected") {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = client.connection.subscribe(check);
    check();
  });
}

test("a mode switch is noticed on the next run, to degraded and back to the contract", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  expect(client.connection.getState().serverKind).toBe("contract");

  await setMode(harness.server.url, "af-legacy");
  await askForDeployment(client, "t-switch-1");
  await kindBecomes(client, "degraded");

  await setMode(harness.server.url, "fixed");
  await askForDeployment(client, "t-switch-2");
  await kindBecomes(client, "contract");
});
