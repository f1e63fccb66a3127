import { expect, test } from "vitest";
import { mockEnv } from "./mock-process.mjs";

test("the demo and the CopilotKit example keep their mock state in files of their own", () => {
  const demo = mockEnv("demo", "8787", {});
  const example = mockEnv("copilotkit", "8787", {});
  expect(demo).toMatchObject({ PORT: "8787", MOCK_STORE: "file" });
  expect(demo.MOCK_DATA).toMatch(/\/\.mock-data\/demo\/state\.json$/);
  expect(example.MOCK_DATA).toMatch(/\/\.mock-data\/copilotkit\/state\.json$/);
});

test("a store or path chosen in the environment wins", () => {
  expect(mockEnv("demo", "9000", { MOCK_STORE: "memory", MOCK_DATA: "/tmp/mine.json" })).toEqual({
    PORT: "9000",
    MOCK_STORE: "memory",
    MOCK_DATA: "/tmp/mine.json",
  });
});
