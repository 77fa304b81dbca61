import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_DIR_LOCK_FILE, lockDataDir } from '../../../local/instanceGuard';

describe('lockDataDir', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-lock-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('claims a free folder with this pid, refuses a second claim while held, and frees it on release', () => {
    // Act
    const first = lockDataDir(dataDir);
    const second = lockDataDir(dataDir);
    if (first.kind === 'acquired') first.release();
    const third = lockDataDir(dataDir);

    // Assess
    expect(first.kind).toBe('acquired');
    expect(second).toEqual({ kind: 'held', pid: process.pid });
    expect(third.kind).toBe('acquired');
  });

  it('takes over a lock whose process is gone', () => {
    // Prepare: the pid of a process that has exited
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
    writeFileSync(join(dataDir, DATA_DIR_LOCK_FILE), JSON.stringify({ pid: gone, startedAt: 'earlier' }));

    // Act
    const lock = lockDataDir(dataDir);

    // Assess
    expect(lock.kind).toBe('acquired');
    const held = JSON.parse(readFileSync(join(dataDir, DATA_DIR_LOCK_FILE), 'utf8')) as { pid: number };
    expect(held.pid).toBe(process.pid);
    if (lock.kind === 'acquired') lock.release();
    expect(existsSync(join(dataDir, DATA_DIR_LOCK_FILE))).toBe(false);
  });
});
