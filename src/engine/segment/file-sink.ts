/**
 * Buffered sequential writes to a file descriptor, tracking the file offset of the next byte.
 * Writes are synchronous into the page cache (1 MiB at a time); durability comes from the
 * caller's fsync at the end.
 */
import fs from 'node:fs';

const CHUNK_BYTES = 1 << 20;

export class FileSink {
  private readonly buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** file offset of the next byte written */
  position = 0;

  constructor(private readonly fd: number) {}

  write(bytes: Uint8Array): void {
    this.position += bytes.length;
    if (bytes.length > CHUNK_BYTES - this.used) {
      this.flush();
      if (bytes.length >= CHUNK_BYTES) {
        writeFully(this.fd, bytes);
        return;
      }
    }
    this.buf.set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    writeFully(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }
}

function writeFully(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}
