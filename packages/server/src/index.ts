export { canonicalJson } from "./engine/canonical-json";
export { type ParsedRunInput, parseRunInput } from "./engine/parse-run-input";
export { BodyTooLargeError, readBody } from "./http/read-body";
export { SseStream, type SseStreamOptions } from "./http/sse-stream";
export type { ContractStore } from "./store/contract-store";
export { createFileStore, type FileStoreOptions } from "./store/file-store";
export { type MemoryDocument, MemoryStore, type MemoryStoreOptions } from "./store/memory-store";
export * from "./store/records";
