/**
 * Whether a process with this id runs on this machine: signal 0 checks without sending anything. EPERM means it
 * runs under another user, which is alive all the same.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid < 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
