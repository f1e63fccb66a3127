import { CopilotKitProvider, type CopilotKitProviderProps } from "@copilotkit/react-core/v2";
import { createRoot } from "react-dom/client";
import { agent } from "./agent";
import { App } from "./app";
import "./styles.css";

// CopilotKit 1.74 types its agents with the @ag-ui/client it bundles (0.0.59);
// DurableHttpAgent extends @ag-ui/client 1.0.0, whose message types add content
// parts (files) the older ones lack. CopilotKit calls agents by their methods,
// never by class, so the cast is the whole of the bridge.
type CopilotAgent = NonNullable<CopilotKitProviderProps["selfManagedAgents"]>[string];

const root = document.getElementById("root");
if (!root) throw new Error("no #root element");
createRoot(root).render(
  <CopilotKitProvider selfManagedAgents={{ default: agent as unknown as CopilotAgent }}>
    <App />
  </CopilotKitProvider>,
);
