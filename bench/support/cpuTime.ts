// CPU time as Linux counts it (proc(5), /proc/<pid>/stat): a server process's own, and the local
// PostgreSQL server's as a whole. PostgreSQL runs a process per connection: a backend that exits
// mid-run (pg.Pool closes idle connections after 10 s) takes its time out of the live processes'
// sum, but the postmaster reaps it, and the time moves to the postmaster's children's time. So the
// server's CPU is every live process of it plus the postmaster's reaped children.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** The fields of /proc/<pid>/stat the harness reads; times in clock ticks. */
export interface ProcStat {
  pid: number;
  command: string;
  parentPid: number;
  /** User and system time of the process (all its threads). */
  ownTicks: number;
  /** User and system time of its children that exited and were waited for. */
  reapedChildrenTicks: number;
}

/** Parses one /proc/<pid>/stat line. */
export function parseProcStat(line: string): ProcStat {
  // The command name is in parentheses and may hold spaces and parentheses: fields 3 on follow the
  // last ")". Numbered as in proc(5): ppid is field 4, utime..cstime are 14-17.
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  const fields = line.slice(close + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return {
    pid: Number(line.slice(0, open)),
    command: line.slice(open + 1, close),
    parentPid: field(4),
    ownTicks: field(14) + field(15),
    reapedChildrenTicks: field(16) + field(17),
  };
}

/** Null when the process is gone (it may exit between listing /proc and reading it). */
function statOf(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

const toMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS;

/** The CPU time (user + system, all threads) a process has used so far, in ms. */
export function cpuMsOf(pid: number): number {
  const stat = statOf(pid);
  if (!stat) throw new Error(`process ${pid} is gone`);
  return toMs(stat.ownTicks);
}

/** The process's resident memory now (VmRSS, proc(5)), in MiB. */
export function residentMiBOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`process ${pid} shows no resident memory`);
  return Number(kib) / 1024;
}

/** The process's parent. */
export function parentPidOf(pid: number): number {
  const stat = statOf(pid);
  if (!stat) throw new Error(`process ${pid} is not on this machine`);
  return stat.parentPid;
}

/**
 * The PostgreSQL server's CPU in ticks, from a snapshot of the machine's processes: the postmaster
 * and every process it started, plus what its children used before they exited.
 */
export function postgresTicks(postmasterPid: number, processes: ProcStat[]): number {
  const postmaster = processes.find((stat) => stat.pid === postmasterPid);
  if (!postmaster) throw new Error(`the postmaster (${postmasterPid}) is gone`);
  const children = processes.filter((stat) => stat.parentPid === postmasterPid);
  return (
    postmaster.ownTicks +
    postmaster.reapedChildrenTicks +
    children.reduce((sum, child) => sum + child.ownTicks, 0)
  );
}

/** Every process of the machine, as /proc shows it now. */
function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => statOf(Number(entry)) ?? []);
}

/** The CPU time the PostgreSQL server of this postmaster has used so far, in ms. */
export function postgresCpuMs(postmasterPid: number): number {
  return toMs(postgresTicks(postmasterPid, allProcesses()));
}
