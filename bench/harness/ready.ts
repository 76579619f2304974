/** Polls the service's readiness probe until it answers 200 (its write-ahead log replayed). */
export async function waitReady(url: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/health/readyz`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
