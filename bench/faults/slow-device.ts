/**
 * A slow disk for real: a small ext4 filesystem on a loop device of its own, and a block I/O
 * throttle on that device for one process (the service), set with the kernel's cgroup I/O
 * controller: `io.max` (wbps, wiops, rbps, riops) under cgroup v2, or the blkio controller's
 * `blkio.throttle.*_device` files under cgroup v1. Only the service's reads and writes of that
 * device are slowed (its fsyncs included, which is what a write-ahead log waits for); nothing
 * else on the machine is. Needs root.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface IoLimits {
  writeBytesPerSecond: number;
  writeIops: number;
  readBytesPerSecond: number;
  readIops: number;
}

export interface SlowDevice {
  /** where the filesystem is mounted */
  mountPoint: string;
  /** the loop device, and its major:minor */
  device: string;
  majorMinor: string;
  /** which controller throttles: cgroup v2 io.max or cgroup v1 blkio */
  mechanism: 'cgroup2 io.max' | 'cgroup1 blkio.throttle';
  /** puts the process (all its threads) in the throttle group and sets the limits */
  throttle(pid: number, limits: IoLimits): void;
  /** lifts the limits (the process stays in the group, unthrottled) */
  lift(): void;
  /** bytes the group has written to the device so far (the throttle's own accounting) */
  groupWriteBytes(): number;
  /** moves any process left back out, removes the group, unmounts, detaches; never throws */
  release(): string[];
}

interface Controller {
  mechanism: SlowDevice['mechanism'];
  /** the hierarchy's root directory */
  root: string;
}

/** Where a block I/O controller is mounted, or why there is none. */
function findController(): Controller | string {
  const mounts = fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' '));
  for (const [, dir, type] of mounts) {
    if (type !== 'cgroup2' || !dir) continue;
    const available = readOr(path.join(dir, 'cgroup.controllers'), '').split(/\s+/);
    if (available.includes('io')) return { mechanism: 'cgroup2 io.max', root: dir };
  }
  for (const [, dir, type, options] of mounts) {
    if (type !== 'cgroup' || !dir || !options?.split(',').includes('blkio')) continue;
    if (fs.existsSync(path.join(dir, 'blkio.throttle.write_bps_device'))) return { mechanism: 'cgroup1 blkio.throttle', root: dir };
  }
  return 'no cgroup I/O controller is available (no cgroup2 hierarchy offering "io", no cgroup1 blkio with throttling)';
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
}

/**
 * Makes the filesystem (an image file of `bytes` in workDir, on the first free loop device) and
 * mounts it at workDir/mnt. Returns why it cannot when the machine does not allow it.
 */
export function makeSlowDevice(workDir: string, bytes: number): SlowDevice | string {
  if (process.getuid?.() !== 0) return 'a loop device, a mount and a cgroup need root';
  const controller = findController();
  if (typeof controller === 'string') return controller;
  const image = path.join(workDir, 'disk.img');
  const mountPoint = path.join(workDir, 'mnt');
  fs.mkdirSync(mountPoint, { recursive: true });
  fs.writeFileSync(image, '');
  fs.truncateSync(image, bytes);
  let device: string;
  try {
    device = run('losetup', ['--find', '--show', image]);
  } catch (err) {
    fs.rmSync(image, { force: true });
    return `losetup failed: ${(err as Error).message}`;
  }
  // undone in reverse: the group, the mount, the loop device, the image
  const cleanup: Array<() => void> = [() => fs.rmSync(image, { force: true }), () => run('losetup', ['--detach', device])];
  const undo = () => {
    process.off('exit', undo);
    const problems: string[] = [];
    for (const step of cleanup.splice(0).reverse()) {
      try {
        step();
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    return problems;
  };
  // a runner that exits before its cleanup (a cancelled test) leaves no mount nor loop device
  process.on('exit', undo);
  try {
    // no lazy initialisation: it would write in the background while the test measures
    run('mkfs.ext4', ['-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0', device]);
    run('mount', [device, mountPoint]);
    cleanup.push(() => unmount(mountPoint));
  } catch (err) {
    undo();
    return `making the filesystem failed: ${(err as Error).message}`;
  }
  const majorMinor = fs.readFileSync(`/sys/block/${path.basename(device)}/dev`, 'utf8').trim();
  const group = path.join(controller.root, `svc-slow-disk-${process.pid}-${path.basename(device)}`);
  const v2 = controller.mechanism === 'cgroup2 io.max';

  const setLimits = (limits: IoLimits | null) => {
    if (v2) {
      const v = (n: number | undefined) => (n === undefined ? 'max' : String(n));
      fs.writeFileSync(
        path.join(group, 'io.max'),
        `${majorMinor} wbps=${v(limits?.writeBytesPerSecond)} wiops=${v(limits?.writeIops)} rbps=${v(limits?.readBytesPerSecond)} riops=${v(limits?.readIops)}`,
      );
      return;
    }
    // one value per file; 0 removes the rule
    const files: Array<[string, number | undefined]> = [
      ['blkio.throttle.write_bps_device', limits?.writeBytesPerSecond],
      ['blkio.throttle.write_iops_device', limits?.writeIops],
      ['blkio.throttle.read_bps_device', limits?.readBytesPerSecond],
      ['blkio.throttle.read_iops_device', limits?.readIops],
    ];
    for (const [file, value] of files) fs.writeFileSync(path.join(group, file), `${majorMinor} ${value ?? 0}`);
  };

  // the group is made now, so that a machine that does not allow it is known before the run
  try {
    if (v2) fs.writeFileSync(path.join(controller.root, 'cgroup.subtree_control'), '+io');
    fs.mkdirSync(group);
    cleanup.push(() => removeGroup(controller.root, group));
    setLimits(null);
  } catch (err) {
    const problems = undo();
    return `making a throttle group under ${controller.root} (${controller.mechanism}) failed: ${(err as Error).message}${problems.length > 0 ? `; cleanup: ${problems.join('; ')}` : ''}`;
  }

  return {
    mountPoint,
    device,
    majorMinor,
    mechanism: controller.mechanism,
    throttle(pid, limits) {
      setLimits(limits);
      fs.writeFileSync(path.join(group, 'cgroup.procs'), String(pid));
    },
    lift() {
      setLimits(null);
    },
    groupWriteBytes() {
      if (v2) {
        const line = readOr(path.join(group, 'io.stat'), '')
          .split('\n')
          .find((l) => l.startsWith(`${majorMinor} `));
        return Number(/wbytes=(\d+)/.exec(line ?? '')?.[1] ?? 0);
      }
      const line = readOr(path.join(group, 'blkio.throttle.io_service_bytes'), '')
        .split('\n')
        .find((l) => l.startsWith(`${majorMinor} Write `));
      return Number(line?.split(' ')[2] ?? 0);
    },
    release: undo,
  };
}

/** Moves what is left in the group to the root (so that it can go) and removes it. */
function removeGroup(root: string, group: string): void {
  for (const pid of readOr(path.join(group, 'cgroup.procs'), '').split('\n').filter(Boolean)) {
    try {
      fs.writeFileSync(path.join(root, 'cgroup.procs'), pid);
    } catch {
      // the process ended meanwhile
    }
  }
  fs.rmdirSync(group);
}

/** Unmounts, waiting a little for a process that just ended to let go of its files. */
function unmount(mountPoint: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      run('umount', [mountPoint]);
      return;
    } catch (err) {
      if (attempt >= 20) {
        // detach it now; the kernel finishes when the last file is closed
        run('umount', ['--lazy', mountPoint]);
        throw new Error(`${mountPoint} was busy, detached lazily: ${(err as Error).message}`);
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
