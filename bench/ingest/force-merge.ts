/**
 * `POST /{index}/_forcemerge?max_num_segments=1`, timed, and the data directory sized after it:
 * flushes write quick segment files and merges make them compact, so the stored size a user
 * keeps is the size after compaction.
 */
import { measureDataDir, waitSettled, type DiskUsage, type HttpClient } from '../harness/index.js';

export interface CompactionResult {
  status: number;
  ms: number;
  error?: string;
  /** the data directory once the service is idle again (replaced files removed) */
  disk: DiskUsage;
  totalPerRawByte: number;
}

export async function compactIndex(client: HttpClient, index: string, pid: number, dataDir: string, rawBytes: number, idleCores: number): Promise<CompactionResult> {
  const res = await client.request({ method: 'POST', path: `/${encodeURIComponent(index)}/_forcemerge?max_num_segments=1` }, 1_800_000);
  // the files a merge replaced are deleted once no search holds them: wait for an idle service
  await waitSettled({ pid, dataDir, waitFlushed: true, walFlushedBytes: 1 << 20, timeoutMs: 120_000, idleCores });
  const disk = measureDataDir(dataDir);
  return {
    status: res.status,
    ms: res.elapsedMs,
    error: res.status === 200 ? undefined : res.body.subarray(0, 300).toString('utf8'),
    disk,
    totalPerRawByte: disk.totalBytes / rawBytes,
  };
}
