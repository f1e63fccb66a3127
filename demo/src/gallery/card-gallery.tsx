import { type CountdownClock, DefaultApprovalCard, OutboxProvider } from "@agui-outbox/react";
import { QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { frozenClient } from "./frozen-client";
import { GALLERY_CASES, GALLERY_NOW } from "./gallery-cases";

const client = frozenClient({
  entries: GALLERY_CASES.flatMap((item) => (item.entry ? [item.entry] : [])),
  threads: GALLERY_CASES.map((item) => item.thread),
  connection: {
    link: { name: "connected", serverKind: "contract" },
    serverKind: "contract",
    online: true,
    leader: true,
  },
});
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
// A clock that never ticks: a countdown shows the same number in every picture.
const frozenClock: CountdownClock = { now: () => GALLERY_NOW, setInterval: () => 0, clearInterval: () => {} };
const noFetch = async (): Promise<Response> => new Response(null, { status: 404 });

/**
 * `/#gallery`: the default card in every state, for each decision, side by side.
 * For people reviewing the card's look, and for the accessibility and screenshot
 * specs; it reads a frozen client, so nothing on it moves.
 */
export default function CardGallery(): ReactNode {
  return (
    <OutboxProvider client={client} queryClient={queryClient} fetch={noFetch}>
      <main className="layout gallery">
        <h1>Approval card: every state</h1>
        <p className="muted">
          The default card for each decision and delivery state, rendered from fixed entries.
        </p>
        <div className="gallery__grid">
          {GALLERY_CASES.map((item) => (
            <section
              key={item.name}
              className="gallery__case"
              aria-label={item.name}
              data-testid="gallery-case"
              data-case={item.name}
            >
              <h2 className="gallery__label">{item.name}</h2>
              <DefaultApprovalCard
                threadId={item.threadId}
                interruptId={item.interruptId}
                clock={frozenClock}
              />
            </section>
          ))}
        </div>
      </main>
    </OutboxProvider>
  );
}
