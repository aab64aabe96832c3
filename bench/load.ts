// The bench's side of the load generator: one long-lived worker process (bench/load-worker.ts)
// that runs autocannon jobs sent over IPC, so the client's work never shares a process — or, where
// pinned, a core — with the server being measured.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { pin } from './machine.ts';

export interface LoadJob {
  id: number;
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  headers: Record<string, string>;
  body?: string;
  /** A body template whose `{n}` becomes unique per request (writes that must not collide). */
  uniqueBody?: string;
  /** Paths the requests cycle through (reads that must miss the answer cache). */
  paths?: string[];
  connections: number;
  seconds: number;
}

export interface LoadSummary {
  /** Requests answered in the run; a run with none measured nothing. */
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export class LoadGenerator {
  private readonly child: ChildProcess;
  private next = 1;
  private readonly pending = new Map<
    number,
    { resolve: (s: LoadSummary) => void; reject: (e: Error) => void }
  >();

  constructor(cpus: string | null) {
    this.child = fork(join(ROOT, 'bench', 'load-worker.ts'), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (cpus && this.child.pid) pin(this.child.pid, cpus);
    this.child.on('message', (m: { id: number; summary?: LoadSummary; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.summary) waiting?.resolve(m.summary);
      else waiting?.reject(new Error(`load worker: ${m.error}`));
    });
    this.child.on('exit', (code) => {
      for (const w of this.pending.values()) w.reject(new Error(`load worker exited (${code})`));
      this.pending.clear();
    });
  }

  run(job: Omit<LoadJob, 'id'>): Promise<LoadSummary> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...job, id });
    });
  }

  stop(): void {
    this.child.kill();
  }
}
