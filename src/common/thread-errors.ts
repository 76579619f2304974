/**
 * Errors crossing between threads. Structured cloning keeps only the message of an Error and
 * drops its class, so a worker sends a plain description instead (class name, message, stack and
 * own fields) and the receiving thread rebuilds an object of the same class: a CorruptionError
 * thrown on a worker thread is a CorruptionError, with its `type`, `status` and `details`, where
 * it is caught. Classes outside the error catalogue and the built-in ones come back as Error.
 */
import * as catalogue from './errors.js';

export interface ThreadError {
  /** class name, e.g. `CorruptionError` */
  name: string;
  message: string;
  stack?: string;
  /** own enumerable fields that survive structured cloning (`type`, `details`, `code`, ...) */
  fields: Record<string, unknown>;
}

type ErrorClass = abstract new (...args: never[]) => Error;

const BUILT_IN: readonly ErrorClass[] = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

/** Every Error class of the catalogue and the built-in ones, by name. */
const CLASSES: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  ...BUILT_IN.map((c) => [c.name, c] as const),
  ...(Object.values(catalogue) as unknown[])
    .filter((v): v is ErrorClass => typeof v === 'function' && v.prototype instanceof Error)
    .map((c) => [c.name, c] as const),
]);

export function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // a field that cannot cross (a function, a handle) stays behind
    }
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

/** An error of the class named in `wire` (Error when unknown), carrying its fields. */
export function fromThreadError(wire: ThreadError): Error {
  const cls = CLASSES.get(wire.name) ?? Error;
  // built without its constructor, whose parameters differ from class to class; the fields the
  // constructor would have set arrive in `fields`
  const err = Object.create(cls.prototype as object) as Error;
  Object.defineProperty(err, 'message', { value: wire.message, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(err, 'stack', { value: wire.stack ?? `${wire.name}: ${wire.message}`, writable: true, configurable: true, enumerable: false });
  Object.assign(err, wire.fields);
  if (err.name !== wire.name) Object.defineProperty(err, 'name', { value: wire.name, writable: true, configurable: true, enumerable: false });
  return err;
}
