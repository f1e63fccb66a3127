const STORAGE_KEY = "agui-outbox-demo:user";
/** Stored in place of a user after "Sign out", so a reload stays signed out. */
const SIGNED_OUT = "";

/** Fixed demo users: each is an outbox namespace. */
export const DEMO_USERS = ["alice", "bob"] as const;

/** The signed-in user, or null after "Sign out" (a first visit signs in as the first user). */
export function currentUser(): string | null {
  const stored = globalThis.localStorage.getItem(STORAGE_KEY);
  if (stored === SIGNED_OUT) return null;
  return stored ?? DEMO_USERS[0];
}

export function rememberUser(user: string | null): void {
  globalThis.localStorage.setItem(STORAGE_KEY, user ?? SIGNED_OUT);
}
