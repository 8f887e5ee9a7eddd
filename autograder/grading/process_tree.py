"""What a sandbox uses, read from outside it in ``/proc``: its CPU time, its time running or waiting for a CPU, its
memory. Student code cannot hide from or stop these readings.

Everything is summed over the sandbox's first process and every process below it. Memory is the proportional set
size of each process (PSS: a page shared by forked children counts once in all), plus what the sandbox's own tmpfs
mounts hold (its working folder, ``/tmp``, ``/dev/shm``) and the content of the anonymous files (``memfd``) its
processes keep open: all memory of the host's, none limited by a process's address space.

Trusted side: the workers' watch (``workers._watch``) and the kernel's. May import: the standard library only.
"""

from __future__ import annotations

import os
import re

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")
_UTIME, _NICE, _POLICY = 11, 16, 38  # indices in /proc/PID/stat after the command's ")": fields 14, 19 and 41


def _stat(path: str) -> list[bytes] | None:
    try:
        with open(path, "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None  # ended meanwhile


def _tree(pid: int) -> dict[int, list[bytes]]:
    """Every live process from ``pid`` down: pid -> the fields of its /proc/PID/stat."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[bytes]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (fields := _stat(f"/proc/{entry.name}/stat")) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            stats[int(entry.name)] = fields
    found, stack = {}, [pid]
    while stack:
        current = stack.pop()
        if current in stats and current not in found:
            found[current] = stats[current]
            stack.extend(children.get(current, ()))
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds used by ``pid`` and every process below it (live ones, and the children they have reaped)."""
    return sum(sum(int(f) for f in fields[_UTIME : _UTIME + 4]) for fields in _tree(pid).values()) / TICK


def tree_runnable(pid: int) -> float:
    """Seconds ``pid`` and the processes below it spent running, or ready to run and waiting for a CPU (summed over
    their threads): a busy machine makes a computing sandbox wait, but only a sandbox that sleeps has little of it.

    Waiting counts only for threads at the first process's own priority and policy: student code may lower its
    priority (``nice``, ``SCHED_IDLE``) to wait on a busy machine without computing, and gets no credit for that."""
    tree = _tree(pid)
    if pid not in tree:
        return 0.0
    base = (tree[pid][_NICE], tree[pid][_POLICY])
    total = sum(sum(int(f) for f in fields[_UTIME : _UTIME + 4]) for fields in tree.values()) / TICK
    for process in tree:
        try:
            threads = os.listdir(f"/proc/{process}/task")
        except OSError:
            continue
        for thread in threads:
            fields = _stat(f"/proc/{process}/task/{thread}/stat")
            if fields is None or (fields[_NICE], fields[_POLICY]) != base:
                continue
            try:
                with open(f"/proc/{process}/task/{thread}/schedstat", "rb") as schedstat:
                    total += int(schedstat.read().split()[1]) / 1e9  # nanoseconds waiting on a run queue
            except (OSError, ValueError, IndexError):
                continue
    return total


def tree_memory(pid: int) -> int:
    """Bytes of memory ``pid`` and every process below it hold: their PSS, their tmpfs mounts' content and the
    memfd files they keep open (each file and mount counted once)."""
    tree = _tree(pid)
    total, seen_files, namespaces = 0, set(), {}
    for process in tree:
        total += _process_memory(process)
        total += _memfd_bytes(process, seen_files)
        try:
            namespaces.setdefault(os.readlink(f"/proc/{process}/ns/mnt"), process)
        except OSError:
            pass
    try:
        namespaces.pop(os.readlink("/proc/self/ns/mnt"), None)  # the host's own mounts are not the sandbox's
    except OSError:
        pass
    return total + _tmpfs_bytes(list(namespaces.values()))


def _process_memory(process: int) -> int:
    """PSS of one process, or its resident size where its smaps cannot be read."""
    try:
        with open(f"/proc/{process}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{process}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _memfd_bytes(process: int, seen: set[tuple[int, int]]) -> int:
    """What the anonymous files (``memfd_create``) a process holds open contain: they are on no mount we can see."""
    total = 0
    try:
        descriptors = os.listdir(f"/proc/{process}/fd")
    except OSError:
        return 0
    for descriptor in descriptors:
        path = f"/proc/{process}/fd/{descriptor}"
        try:
            if not os.readlink(path).startswith("/memfd:"):
                continue
            info = os.stat(path)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


def _devices(mountinfo: str) -> list[tuple[int, str, str]]:
    """(device, mount point, file system type) of every line of a mountinfo file."""
    found = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if " - " not in line or len(fields) < 5:
            continue
        major, minor = fields[2].split(":")
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        found.append((os.makedev(int(major), int(minor)), point, line.split(" - ", 1)[1].split()[0]))
    return found


def _tmpfs_bytes(processes: list[int]) -> int:
    """Bytes in use on the tmpfs mounts of these processes' mount namespaces that are not the host's own (a host
    folder the sandbox may read is never counted), each once."""
    try:
        with open("/proc/self/mountinfo") as own:
            host = {device for device, _, _ in _devices(own.read())}
    except OSError:
        return 0
    total, seen = 0, set(host)
    for process in processes:
        try:
            with open(f"/proc/{process}/mountinfo") as mounts:
                found = _devices(mounts.read())
        except OSError:
            continue
        for device, point, kind in found:
            if kind != "tmpfs" or device in seen:
                continue
            path = f"/proc/{process}/root{point}"
            try:  # student code can replace a folder on the way with a link: read only the mount itself
                if os.stat(path).st_dev != device:
                    continue
                usage = os.statvfs(path)
            except OSError:
                continue
            seen.add(device)
            total += (usage.f_blocks - usage.f_bfree) * usage.f_frsize
    return total
