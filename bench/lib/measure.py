"""Timing of whole compiler processes for bench/run.

Each command runs as a child process; os.wait4 returns its rusage, which on Linux includes
every descendant the child waited for (clang's ld.lld), so CPU time (user + system) and peak
RSS cover the whole compile, process start-up included.  When a C compiler is at hand the
command runs under rusage_exec.c (built once into a temporary directory), which reports the
command's own rusage: a process forked from Python would count Python's peak RSS (~20 MiB)
as its own.  Wall time is measured around the
child.  Commands of one PTX file are run interleaved, A B C A B C ..., so that load drift on a
shared machine hits every column alike; each figure is then the median of the runs.
"""

import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

_LAUNCHER = []  # [path] once built, [None] when no compiler could build it


def launcher():
    """The rusage_exec binary, built on first use (None when no C compiler works)."""
    if not _LAUNCHER:
        path = None
        cc = shutil.which('cc') or shutil.which('gcc') or shutil.which('clang-19')
        if cc:
            out = os.path.join(tempfile.mkdtemp(prefix='bench-rusage-'), 'rusage_exec')
            src = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rusage_exec.c')
            if subprocess.run([cc, '-O2', src, '-o', out], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                path = out
        _LAUNCHER.append(path)
    return _LAUNCHER[0]


class Usage:
    """The fields of a resource.struct_rusage that the samples use."""

    def __init__(self, utime, stime, maxrss):
        self.ru_utime, self.ru_stime, self.ru_maxrss = utime, stime, maxrss


class Sample:
    def __init__(self, wall, cpu, rss_kib, status, message):
        self.wall, self.cpu, self.rss_kib = wall, cpu, rss_kib
        self.status, self.message = status, message


def wait_with_deadline(proc, deadline):
    """os.wait4 on proc; kills it at `deadline` (time.monotonic, None: no limit).  Returns
    (status, rusage, timed_out)."""
    if deadline is None:
        _, status, usage = os.wait4(proc.pid, 0)
        return status, usage, False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            return status, usage, False
        if time.monotonic() > deadline:
            try:  # the whole group: the launcher and the command it runs
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            return status, usage, True
        time.sleep(0.02)


def run_timed(cmd, stderr_path, deadline=None):
    """Runs cmd once (stdout discarded, stderr kept in stderr_path); returns a Sample."""
    exe = launcher()
    report = stderr_path + '.rusage'
    if exe:
        cmd = [exe, report] + list(cmd)
    with open(stderr_path, 'wb') as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True)
        except OSError as e:
            return Sample(0.0, 0.0, 0, 127, '%s: %s' % (cmd[0], e.strerror))
        status, usage, timed_out = wait_with_deadline(proc, deadline)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    if exe and not timed_out and os.path.exists(report):
        with open(report) as f:
            user, system, rss, _ = f.read().split()
        os.unlink(report)
        usage = Usage(float(user), float(system), int(rss))
    if timed_out:
        return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, -1,
                      'stopped at the time limit of the run after %.0f s wall' % wall)
    message = ''
    if proc.returncode != 0:
        with open(stderr_path, errors='replace') as f:
            lines = [line.strip() for line in f if line.strip()]
        message = lines[0] if lines else 'exit status %d' % proc.returncode
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode,
                  message)


class Figure:
    """Medians and ranges of several samples of one command, or the error that stopped it."""

    def __init__(self, samples):
        ok = [s for s in samples if s.status == 0]
        self.runs = len(ok)
        self.error = None if ok else (samples[0].message if samples else 'not run')
        if ok:
            walls, cpus = [s.wall for s in ok], [s.cpu for s in ok]
            self.wall, self.wall_min, self.wall_max = statistics.median(walls), min(walls), max(
                walls)
            self.cpu, self.cpu_min, self.cpu_max = statistics.median(cpus), min(cpus), max(cpus)
            self.rss_mib = max(s.rss_kib for s in ok) / 1024.0

    @property
    def ok(self):
        return self.error is None

    def to_dict(self):
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data):
        fig = cls.__new__(cls)
        fig.__dict__.update(data)
        return fig


SLOW_CPU_SECONDS = 5.0


def measure_interleaved(commands, repeats, scratch_dir, deadline=None):
    """commands: {column: argv}.  Runs every command `repeats` times, interleaved; a command
    that fails is not repeated (its first error line is kept), nor is one whose first run took
    more than SLOW_CPU_SECONDS of CPU (its figure is that one run: the benchmark has to fit in
    a session on a shared 2-core machine).  Past `deadline` (time.monotonic) no command is
    repeated and a running one is stopped.  Returns {column: Figure}."""
    samples = {col: [] for col in commands}
    done = set()
    for rep in range(repeats):
        for col, cmd in commands.items():
            if col in done or (rep and deadline and time.monotonic() > deadline):
                continue
            sample = run_timed(cmd, os.path.join(scratch_dir, 'stderr.txt'), deadline)
            samples[col].append(sample)
            if sample.status != 0 or sample.cpu > SLOW_CPU_SECONDS:
                done.add(col)
    return {col: Figure(samples[col]) for col in commands}


def run_checked(cmd, what):
    """Runs a preparation step; raises RuntimeError with its output when it fails."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise RuntimeError('%s failed: %s\n%s' % (what, ' '.join(cmd), r.stdout[-2000:]))
    return r.stdout
