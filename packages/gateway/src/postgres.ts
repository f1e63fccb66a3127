export { PostgresThreadLock, type PostgresThreadLockOptions } from "./postgres-thread-lock";
