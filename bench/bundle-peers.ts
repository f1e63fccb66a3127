// The libraries a React developer would otherwise reach for, measured like the SDK
// (bench/bundle-size.ts with BUNDLE_PEERS=1). They are installed, at these exact
// versions, into a folder of their own so the workspace never depends on them.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Subject } from "./measure-bundle.ts";

const VERSIONS = {
  "@ag-ui/client": "1.0.0",
  ai: "7.0.173",
  "@ai-sdk/react": "4.0.177",
  "@langchain/langgraph-sdk": "1.15.0",
  "@assistant-ui/react": "0.15.22",
  "@copilotkit/react-core": "1.74.0",
  // A peer of @langchain/langgraph-sdk that an app using it installs.
  "@langchain/core": "1.4.0",
  // The excluded peers, so each library resolves the React it expects.
  react: "19.3.1",
  "react-dom": "19.3.1",
  "@tanstack/react-query": "5.108.4",
} as const;

export const PEERS: readonly Subject[] = [
  { label: "`@ag-ui/client` (HttpAgent)", source: 'export { HttpAgent } from "@ag-ui/client";' },
  {
    label: "`ai` + `@ai-sdk/react` (useChat)",
    source: 'export { useChat } from "@ai-sdk/react";\nexport { DefaultChatTransport } from "ai";',
  },
  {
    label: "`@langchain/langgraph-sdk` (Client)",
    source: 'export { Client } from "@langchain/langgraph-sdk";',
  },
  {
    label: "`@assistant-ui/react` (runtime, Thread primitives)",
    source:
      'export { AssistantRuntimeProvider, ThreadPrimitive, MessagePrimitive, useLocalRuntime } from "@assistant-ui/react";',
  },
  {
    label: "`@copilotkit/react-core` (CopilotKit, useCopilotAction)",
    source: 'export { CopilotKit, useCopilotAction } from "@copilotkit/react-core";',
  },
];

/** Installs the peers once (kept until their versions change); returns the folder. */
export function installPeers(): string {
  const folder = new URL("../node_modules/.cache/bundle-peers/", import.meta.url).pathname;
  const manifest = { name: "bundle-peers", private: true, type: "module", dependencies: VERSIONS };
  const path = `${folder}package.json`;
  const wanted = JSON.stringify(manifest, null, 2);
  if (existsSync(`${folder}node_modules`) && existsSync(path) && readFileSync(path, "utf8") === wanted)
    return folder;
  mkdirSync(folder, { recursive: true });
  writeFileSync(path, wanted);
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--legacy-peer-deps", "--no-package-lock"],
    { cwd: folder, stdio: "inherit" },
  );
  return folder;
}
