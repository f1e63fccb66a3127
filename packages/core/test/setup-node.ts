// Node has no IndexedDB; fake-indexeddb gives the store contract suite one.
import "fake-indexeddb/auto";
