// The entry of a worker thread whose code is TypeScript (REST front threads, src/transport/http/threads/fronts.ts;
// the first-start registry import, src/registry/load-directory.ts). Node 20 does not run a worker's ESM
// entry through --import loader hooks (tsx), but require() goes through tsx's CommonJS hook, the way piscina loads
// workers/ops.ts; compiled to JavaScript, require() loads the ES module natively (Node >= 20.19, no top-level await).
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

createRequire(import.meta.url)(workerData.entry);
