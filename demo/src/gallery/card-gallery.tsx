import { type CountdownClock, DefaultApprovalCard, OutboxProvider } from "@agui-outbox/react";
import { QueryClient } from "@tanstack/react-query";
import { type ReactNode, useSyncExternalStore } from "react";
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

/** `#gallery/<case>` shows that card alone, at the top of the page. */
function useOnlyCase(): string | null {
  const hash = useSyncExternalStore(
    (listener) => {
      globalThis.addEventListener("hashchange", listener);
      return () => globalThis.removeEventListener("hashchange", listener);
    },
    () => globalThis.location.hash,
  );
  return hash.startsWith("#gallery/") ? decodeURIComponent(hash.slice("#gallery/".length)) : null;
}

/**
 * `/#gallery`: the default card in every state, for each decision, side by side.
 * For people reviewing the card's look, and for the accessibility and screenshot
 * specs; it reads a frozen client, so nothing on it moves. `#gallery/<case>`
 * shows one card alone, so its picture never depends on the size of the others.
 */
export default function CardGallery(): ReactNode {
  const only = useOnlyCase();
  const single = GALLERY_CASES.find((item) => item.name === only);
  if (single)
    return (
      <OutboxProvider client={client} queryClient={queryClient} fetch={noFetch}>
        <main className="layout gallery" data-testid="gallery-single" data-case={single.name}>
          <DefaultApprovalCard
            threadId={single.threadId}
            interruptId={single.interruptId}
            clock={frozenClock}
          />
        </main>
      </OutboxProvider>
    );
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
