#!/usr/bin/env python3
"""Run a command and print its CPU time as JSON: user+sys of the command and of every process it waited for
(os.wait4's rusage: the kernel adds each reaped descendant's usage to its parent's), plus wall time, in ms.
Usage: python3 bench/wait4.py <cwd> <cmd> [args...]   (stdout/stderr of the command go to /dev/null)"""
import json, os, sys, time

cwd, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.chdir(cwd)
    fd = os.open(os.devnull, os.O_RDWR)
    os.dup2(fd, 0); os.dup2(fd, 1); os.dup2(fd, 2)
    os.execvp(argv[0], argv)
_, status, ru = os.wait4(pid, 0)
wall = (time.monotonic() - t0) * 1000
print(json.dumps({"cpuMs": (ru.ru_utime + ru.ru_stime) * 1000, "wallMs": wall, "status": os.waitstatus_to_exitcode(status)}))
