/**
 * The in-flight requests budget (SVC_IN_FLIGHT_REQUESTS_BYTES), as Elasticsearch's
 * `in_flight_requests` breaker: the bytes of request bodies being received or held until their
 * answer is sent, and of answers not yet handed to their sockets' buffers. A request whose body
 * would pass the budget gets 429 circuit_breaking_exception: at once when its Content-Length
 * says so, before anything is read, or at the chunk that passes it. Answers are counted but never
 * refused (the work is done); while they fill the budget, new bodies are refused. A body is
 * refused only for what other requests hold: alone, a body up to SVC_MAX_BULK_BYTES passes.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { CircuitBreakingError, humanBytes } from '../common/index.js';

/** What one request holds, given back when its response closes. */
interface Holding {
  bytes: number;
  closed: boolean;
  /** its body was charged whole when it was admitted: no need to count it as it arrives */
  bodyCharged: boolean;
}

export class InFlightBytes {
  private used = 0;
  private readonly holdings = new WeakMap<FastifyReply, Holding>();

  constructor(readonly limitBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /**
   * Opens the request's account (closed with its response, finished or aborted); throws
   * CircuitBreakingError when its declared body would take what others hold past the budget.
   * A body held as it is sent (`declaredIsHeld`: no content encoding) is charged at once, as
   * Elasticsearch charges a request's content length, and read without a counting stream.
   */
  admit(reply: FastifyReply, declaredBytes: number, declaredIsHeld: boolean): void {
    if (declaredBytes > 0 && this.used > 0 && this.used + declaredBytes > this.limitBytes) throw this.tooLarge(this.used + declaredBytes);
    const holding: Holding = { bytes: 0, closed: false, bodyCharged: declaredBytes > 0 && declaredIsHeld };
    this.holdings.set(reply, holding);
    if (holding.bodyCharged) this.hold(holding, declaredBytes);
    reply.raw.once('close', () => {
      holding.closed = true;
      this.used -= holding.bytes;
      holding.bytes = 0;
    });
  }

  /**
   * The body as it arrives, each chunk counted; the chunk that would pass the budget fails the
   * stream with CircuitBreakingError, and the rest of the body is left unread.
   */
  countBody(reply: FastifyReply, body: NodeJS.ReadableStream): NodeJS.ReadableStream {
    const holding = this.holdings.get(reply);
    if (!holding || holding.bodyCharged) return body;
    const counted = new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) => {
        if (!holding.closed) {
          // a body alone may pass the budget (up to SVC_MAX_BULK_BYTES): only others' bytes refuse it
          if (this.used > holding.bytes && this.used + chunk.length > this.limitBytes) {
            body.unpipe(counted);
            done(this.tooLarge(this.used + chunk.length));
            return;
          }
          this.hold(holding, chunk.length);
        }
        done(null, chunk);
      },
    });
    body.on('error', (err: Error) => counted.destroy(err));
    // as for the inflating stream (server.ts): a request answered without reading its body has
    // nobody listening for the error any more, and it must not become an uncaught exception
    counted.on('error', () => undefined);
    return body.pipe(counted);
  }

  /** Counts an answer's bytes until its response closes (never refused: it is built). */
  countAnswer(reply: FastifyReply, payload: unknown): void {
    const holding = this.holdings.get(reply);
    if (!holding || holding.closed) return;
    // a one-byte string is one byte a character, a two-byte one two: length is a lower bound
    const bytes = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
    this.hold(holding, bytes);
  }

  private hold(holding: Holding, bytes: number): void {
    holding.bytes += bytes;
    this.used += bytes;
  }

  private tooLarge(wanted: number): CircuitBreakingError {
    return new CircuitBreakingError(
      `[in_flight_requests] Data too large, data for [<http_request>] would be [${wanted}/${humanBytes(wanted)}], ` +
        `which is larger than the limit of [${this.limitBytes}/${humanBytes(this.limitBytes)}]`,
      { bytes_wanted: wanted, bytes_limit: this.limitBytes },
    );
  }
}
