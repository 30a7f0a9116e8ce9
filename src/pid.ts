/** Whether a process of this host is still running: what lets a dead run's lock or temporary file be cleared. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: the process exists but belongs to another user.
    return (cause as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
