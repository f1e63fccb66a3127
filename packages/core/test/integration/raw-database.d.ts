/**
 * Every value of every object store of one IndexedDB database, as stored, and
 * as text: strings as they are, bytes (ArrayBuffer, typed arrays) decoded as
 * UTF-8, so a search for an answer's text finds it wherever it was written.
 */
export declare function rawDatabaseText(factory: IDBFactory, name: string): Promise<string>;
