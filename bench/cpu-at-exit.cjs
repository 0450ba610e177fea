// Preloaded by bench/startup.mjs (`node -r`) into each process it times: at exit, appends the
// process's own CPU time (user + system, ms) to the file $WSM_BENCH_CPU. CPU time is steadier than
// wall time on a shared machine, where a process also waits for a core.
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  appendFileSync(process.env.WSM_BENCH_CPU, `${(user + system) / 1000}\n`);
});
