/**
 * Bytes a data directory holds, split by role: segment files (`*.seg`), the write-ahead log
 * (`wal/`), the metastore (`metastore.*`) and anything else.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DiskUsage {
  totalBytes: number;
  segmentBytes: number;
  segmentFiles: number;
  walBytes: number;
  walFiles: number;
  metastoreBytes: number;
  otherBytes: number;
  files: number;
}

export function measureDataDir(dir: string): DiskUsage {
  const usage: DiskUsage = {
    totalBytes: 0, segmentBytes: 0, segmentFiles: 0, walBytes: 0, walFiles: 0, metastoreBytes: 0, otherBytes: 0, files: 0,
  };
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const absChild = path.join(abs, entry.name);
      const relChild = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(absChild, relChild);
        continue;
      }
      if (!entry.isFile()) continue;
      const size = fs.statSync(absChild).size;
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
