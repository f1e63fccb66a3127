const STORAGE_KEY = "agui-outbox-demo:user";

/** Fixed demo users: each is an outbox namespace. */
export const DEMO_USERS = ["alice", "bob"] as const;

export function currentUser(): string {
  return globalThis.localStorage.getItem(STORAGE_KEY) ?? DEMO_USERS[0];
}

export function rememberUser(user: string): void {
  globalThis.localStorage.setItem(STORAGE_KEY, user);
}
