export { MIGRATIONS, migrate, SCHEMA_VERSION } from "./migrations";
export { PostgresStore, type PostgresStoreOptions } from "./postgres-store";
