const STORAGE_KEY = "agui-outbox-demo:thread";
const HASH = /^#thread=([\w-]+)$/;

function newThreadId(): string {
  return `t-${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

/** The thread in the URL hash (`#thread=<id>`), else the last one used, else a new one. */
export function currentThreadId(): string {
  const fromHash = HASH.exec(globalThis.location.hash)?.[1];
  const id = fromHash ?? globalThis.localStorage.getItem(STORAGE_KEY) ?? newThreadId();
  rememberThreadId(id);
  return id;
}

/** Puts the thread in the URL and localStorage, so a reload returns to it. */
export function rememberThreadId(id: string): void {
  globalThis.localStorage.setItem(STORAGE_KEY, id);
  if (globalThis.location.hash !== `#thread=${id}`)
    globalThis.history.replaceState(null, "", `#thread=${id}`);
}

export function startNewThread(): string {
  const id = newThreadId();
  rememberThreadId(id);
  return id;
}
