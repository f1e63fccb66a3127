import "@agui-outbox/react/styles.css";
import "./app.css";
import { lazy, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";

// `/#gallery` shows the approval card in every state (loaded only there).
const CardGallery = lazy(() => import("./gallery/card-gallery"));

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    globalThis.location.hash.startsWith("#gallery") ? (
      <Suspense fallback={null}>
        <CardGallery />
      </Suspense>
    ) : (
      <App />
    ),
  );
