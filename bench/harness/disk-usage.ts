/**
 * Bytes a data directory holds, split by role: segment files (`*.seg`, in the local segment
 * directory or the local object store), the write-ahead log (`wal/`), the metastore
 * (`metastore.*`) and anything else. A file hard-linked under several names (the local object
 * store links the segment files it holds) occupies the disk once and is counted once.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DiskUsage {
  /** distinct files' apparent sizes */
  totalBytes: number;
  segmentBytes: number;
  segmentFiles: number;
  walBytes: number;
  walFiles: number;
  metastoreBytes: number;
  otherBytes: number;
  /** distinct files */
  files: number;
  /** names that are further hard links of a file already counted */
  extraLinks: number;
}

export function measureDataDir(dir: string): DiskUsage {
  const usage: DiskUsage = {
    totalBytes: 0, segmentBytes: 0, segmentFiles: 0, walBytes: 0, walFiles: 0, metastoreBytes: 0, otherBytes: 0, files: 0, extraLinks: 0,
  };
  const seen = new Set<string>();
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const absChild = path.join(abs, entry.name);
      const relChild = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(absChild, relChild);
        continue;
      }
      if (!entry.isFile()) continue;
      const stat = fs.statSync(absChild, { bigint: true });
      const inode = `${stat.dev}:${stat.ino}`;
      if (seen.has(inode)) {
        usage.extraLinks++;
        continue;
      }
      seen.add(inode);
      const size = Number(stat.size);
      usage.files++;
      usage.totalBytes += size;
      if (relChild.startsWith('wal/')) {
        usage.walBytes += size;
        usage.walFiles++;
      } else if (entry.name.endsWith('.seg')) {
        usage.segmentBytes += size;
        usage.segmentFiles++;
      } else if (!rel && entry.name.startsWith('metastore')) {
        usage.metastoreBytes += size;
      } else {
        usage.otherBytes += size;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return usage;
}
