// The Node flags of the production server (decision 090), for what starts it from code: the benches,
// the deploy tests and the e2e servers. package.json's start/serve, the Dockerfile, deploy/marquee.service
// and the README write the same flags out.
//   --no-concurrent-recompilation: V8 optimises on the main thread instead of four helper threads, whose
//   malloc arenas otherwise keep ~8 MiB of freed compiler memory for the life of the process.
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];
