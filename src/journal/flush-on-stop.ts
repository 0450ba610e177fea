// A change's records held in memory between writes are lost if a signal ends the process: Ctrl-C
// half-way through a bulk run or an undo would leave changes made and never journaled, so nothing
// could take them back. While a change is written, these signals write what is held first, then
// end the process as they would have (the same signal, so the shell sees the same status).

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Calls `flush` should a stop signal come; returns the function that stops listening (call it when the change ends). */
export function flushOnStop(flush: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    try {
      flush();
    } finally {
      // Another listener (a server's own shutdown) decides what the signal does; alone, it ends the process as unheard.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    }
  };
  const stop = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return stop;
}
