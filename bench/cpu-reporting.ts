/**
 * Lets the bench ask a server process how much CPU it has used (over IPC), so
 * the cost per request can be compared even when neighbours load the machine.
 */
export function reportCpuOnRequest(): void {
  process.on('message', (message) => {
    if (message === 'cpu') {
      const usage = process.cpuUsage();
      process.send?.({ cpuMicros: usage.user + usage.system });
    }
  });
}
