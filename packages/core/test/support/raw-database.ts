/**
 * Every value of every object store of one IndexedDB database, as stored, and
 * as text: strings as they are, bytes (ArrayBuffer, typed arrays) decoded as
 * UTF-8, so a search for an answer's text finds it wherever it was written.
 */
export async function rawDatabaseText(factory: IDBFactory, name: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names, "readonly");
  const values = await Promise.all(
    names.map(
      (store) =>
        new Promise<unknown[]>((resolve, reject) => {
          const request = tx.objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
    ),
  );
  db.close();
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return JSON.stringify(values.flat(), (_key, value: unknown) => {
    if (value instanceof ArrayBuffer) return decoder.decode(value);
    if (ArrayBuffer.isView(value)) return decoder.decode(value);
    return value;
  });
}
