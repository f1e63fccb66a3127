import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig, type ProxyOptions } from "vite";

// Served like the demo: the production build under `vite preview`, with the mock
// server's routes proxied. The example has its own node_modules (CopilotKit and the
// React it renders with); the agent and the core resolve from the workspace.
const here = fileURLToPath(new URL(".", import.meta.url));
const mockPort = Number(process.env.MOCK_PORT ?? 8787);
const appPort = Number(process.env.EXAMPLE_PORT ?? 5174);

// A stream the mock cuts must reach the browser as a cut stream, not hang in the proxy.
const proxyToMock: ProxyOptions = {
  target: `http://127.0.0.1:${mockPort}`,
  configure(proxy) {
    proxy.on("proxyRes", (upstream, _request, response) => {
      upstream.on("close", () => {
        if (!upstream.complete) response.destroy();
      });
    });
  },
};
const server = { port: appPort, strictPort: true, proxy: { "/agent": proxyToMock, "/__": proxyToMock } };

export default defineConfig({
  root: here,
  plugins: [react()],
  // The workspace packages resolve to their sources, as in the demo (no build step).
  resolve: {
    dedupe: ["react", "react-dom"],
    conditions: ["@agui-outbox/source", ...defaultClientConditions],
  },
  build: { outDir: `${here}dist`, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  server,
  preview: server,
});
