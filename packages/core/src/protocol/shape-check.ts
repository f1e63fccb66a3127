import { isJsonObject } from "../stream/simple-event-check";

// Exact equivalents of zod/mini schemas (same verdicts, same output), so what a page reads up
// front needs no zod; tests hold each use to its schema.

/** What a check returns for a value it refuses (`undefined` is a value a field may hold). */
export const INVALID: unique symbol = Symbol("invalid");
/** The value as the schema outputs it, or `INVALID`. */
export type Check = (value: unknown) => unknown;

/** A key that may be absent (`z.exactOptional`): when present, its value must pass the check. */
export interface Optional {
  readonly optional: Check;
}
export type FieldRule = Check | Optional;
/** An object's declared keys, each with its rule. */
export type Shape = Readonly<Record<string, FieldRule>>;
/** A rule for every key of `T`, optional exactly where `T`'s key is. */
export type ShapeOf<T> = { readonly [K in keyof T]-?: object extends Pick<T, K> ? Optional : Check };

/** Unknown keys: dropped (`z.object`) or kept as they are (`z.looseObject`). */
export const Rest = { strip: "strip", keep: "keep" } as const;
export type Rest = (typeof Rest)[keyof typeof Rest];

const accepting =
  (test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? value : INVALID;

export const anyValue: Check = (value) => value;
export const string = accepting((value) => typeof value === "string");
/** `z.string().check(z.minLength(1))`. */
export const nonEmptyString = accepting((value) => typeof value === "string" && value.length > 0);
/** `z.number()`: finite, never NaN. */
export const number = accepting(Number.isFinite);
/** `z.int().check(z.nonnegative())`: a safe integer ≥ 0 (-0 included). */
export const count = accepting((value) => Number.isSafeInteger(value) && (value as number) >= 0);
/** `z.int().check(z.positive())`: a safe integer > 0. */
export const positiveCount = accepting((value) => Number.isSafeInteger(value) && (value as number) > 0);
export const boolean = accepting((value) => typeof value === "boolean");
/** `z.custom(isJsonObject)`: the object itself, not a copy. */
export const jsonObject = accepting(isJsonObject);

/** `z.literal` / `z.enum`: one of these values. */
export function oneOf(values: readonly unknown[]): Check {
  const allowed = new Set(values);
  return accepting((value) => allowed.has(value));
}

export function nullable(check: Check): Check {
  return (value) => (value === null ? null : check(value));
}

export function optional(check: Check): Optional {
  return { optional: check };
}

/** `z.optional`: absent, or present and `undefined` (kept so), or passing the check. */
export function optionalOrUndefined(check: Check): Optional {
  return optional((value) => (value === undefined ? undefined : check(value)));
}

/** `z.array`: a new array of the items' outputs. */
export function arrayOf(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return INVALID;
    const output: unknown[] = [];
    for (let index = 0; index < value.length; index += 1) {
      const item = check(value[index]);
      if (item === INVALID) return INVALID;
      output.push(item);
    }
    return output;
  };
}

/** `z.record(z.string(), z.unknown())`: own enumerable keys copied, `__proto__` left out. */
export const record: Check = (value) => {
  if (!isPlainObject(value)) return INVALID;
  const output: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key !== "string") return INVALID;
    output[key] = value[key];
  }
  return output;
};

/** `z.object` / `z.looseObject`: declared keys checked (`in`), unknown ones (`for…in`) dropped or kept. */
export function objectOf(shape: Shape, rest: Rest): Check {
  const keys = Object.keys(shape);
  return (value) => {
    if (!isJsonObject(value)) return INVALID;
    const output: Record<string, unknown> = {};
    for (const key of keys) {
      const rule = shape[key] as FieldRule;
      if (!(key in value)) {
        if (typeof rule === "function") return INVALID;
        continue;
      }
      const field = (typeof rule === "function" ? rule : rule.optional)(value[key]);
      if (field === INVALID) return INVALID;
      output[key] = field;
    }
    if (rest === Rest.keep) {
      for (const key in value) {
        if (key !== "__proto__" && !Object.hasOwn(shape, key)) output[key] = value[key];
      }
    }
    return output;
  };
}

/** `z.discriminatedUnion`. */
export function variants(discriminator: string, shapes: Readonly<Record<string, Shape>>, rest: Rest): Check {
  // A Map, not the object: a discriminator such as "__proto__" or "toString" must find nothing.
  const checks = new Map<unknown, Check>();
  for (const [name, shape] of Object.entries(shapes)) {
    checks.set(name, objectOf({ [discriminator]: oneOf([name]), ...shape }, rest));
  }
  return (value) => {
    if (!isJsonObject(value)) return INVALID;
    return checks.get(value[discriminator])?.(value) ?? INVALID;
  };
}

/** zod's test for a record: an object whose constructor, if it has one, looks like `Object`. */
function isPlainObject(value: unknown): value is Readonly<Record<PropertyKey, unknown>> {
  if (!isJsonObject(value)) return false;
  const maker: unknown = value.constructor;
  if (typeof maker !== "function") return true;
  const prototype: unknown = maker.prototype;
  return isJsonObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}
