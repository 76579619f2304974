/**
 * Starts the Azurite blob emulator for tests: `azurite-blob` from this repository's node_modules,
 * on a free port of 127.0.0.1 with a temporary workspace, stopped in teardown. Containers are
 * made with the emulator's well-known account key and handed out as container SAS URLs, the form
 * an operator configures. The generic child-server runner here is shared with s3.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BlobServiceClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  SASProtocol,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';

export const AZURITE_ACCOUNT = 'devstoreaccount1';
/** the emulator's published development key, not a secret */
export const AZURITE_ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface SasOptions {
  /** container SAS permissions; default racwdl */
  permissions?: string;
  expiresOn?: Date;
  /** sign with a key the emulator does not know: a well-formed SAS with a wrong signature */
  wrongKey?: boolean;
}

export interface AzuriteServer {
  /** http://127.0.0.1:<port>/devstoreaccount1 */
  blobEndpoint: string;
  /** creates a container with a fresh name and returns the name */
  createContainer(): Promise<string>;
  /** a container SAS URL, optionally followed by a key prefix path */
  sasUrl(container: string, options?: SasOptions, prefix?: string): string;
  stop(): Promise<void>;
}

let containerCounter = 0;

/** Why Azurite cannot be started here, or undefined when it can. */
export function azuriteUnavailable(): string | undefined {
  return findBin('azurite-blob') ? undefined : 'node_modules/.bin/azurite-blob not found';
}

export async function startAzurite(): Promise<AzuriteServer> {
  const bin = findBin('azurite-blob');
  if (!bin) throw new Error('node_modules/.bin/azurite-blob not found');
  const dir = mkdtempSync(join(tmpdir(), 'svc-azurite-'));
  const server = await startChildServer(
    'azurite',
    realpathSync(bin),
    ['--blobHost', '127.0.0.1', '--blobPort', '0', '--location', dir, '--silent', '--skipApiVersionCheck', '--loose', '--disableTelemetry'],
    /successfully listens on https?:\/\/127\.0\.0\.1:(\d+)/,
    dir,
  );
  const blobEndpoint = `http://127.0.0.1:${server.port}/${AZURITE_ACCOUNT}`;
  const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_ACCOUNT_KEY);
  const service = BlobServiceClient.fromConnectionString(
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_ACCOUNT_KEY};BlobEndpoint=${blobEndpoint};`,
  );
  return {
    blobEndpoint,
    async createContainer() {
      const name = `svc-test-${process.pid}-${++containerCounter}`;
      await service.getContainerClient(name).create();
      return name;
    },
    sasUrl(container, options = {}, prefix = '') {
      const signer = options.wrongKey
        ? new StorageSharedKeyCredential(AZURITE_ACCOUNT, Buffer.from('not the emulator key').toString('base64'))
        : credential;
      const sas = generateBlobSASQueryParameters(
        {
          containerName: container,
          permissions: ContainerSASPermissions.parse(options.permissions ?? 'racwdl'),
          expiresOn: options.expiresOn ?? new Date(Date.now() + 3600_000),
          protocol: SASProtocol.HttpsAndHttp,
        },
        signer,
      ).toString();
      const path = prefix ? `/${prefix}` : '';
      return `${blobEndpoint}/${container}${path}?${sas}`;
    },
    stop: server.stop,
  };
}


export interface ChildServer {
  port: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

const WATCHDOG_SCRIPT = ['read _', 'kill -TERM "$1" 2>/dev/null', 'sleep 1', 'kill -KILL "$1" 2>/dev/null', 'rm -rf "$2"'].join('\n');

/** The repository root: the nearest folder above this file holding node_modules/.bin/<bin>. */
export function findBin(bin: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', '.bin', bin);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Starts `node <nodeArgs> <script> <args>` and resolves once a line of its output matches `ready` (whose
 * first group is the port). `dir` is removed on stop.
 */
export async function startChildServer(
  name: string,
  script: string,
  args: string[],
  ready: RegExp,
  dir: string,
  nodeArgs: string[] = [],
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', onExit);
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, `${name}-watchdog`, String(child.pid), dir], { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', () => undefined);
  // the watchdog must not keep this process alive, nor its pipe
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?(): void } | null)?.unref?.();

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    await stopChild(child, exited);
    watchdog.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await waitForPort(name, child, ready);
    return { port, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function waitForPort(name: string, child: ChildProcess, ready: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      log = (log + chunk.toString()).slice(-8192);
      const m = ready.exec(log);
      if (m) {
        cleanup();
        resolve(Number(m[1]));
      }
    };
    const onExit = (): void => fail(new Error(`${name} exited during startup:\n${log}`));
    const fail = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      // keep draining output so that the child never blocks on a full pipe
      child.stdout?.removeListener('data', onData);
      child.stderr?.removeListener('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
