#!/usr/bin/env python3
"""Summarizes async-profiler's collapsed stacks (profile-cold.sh's NAME.CORES.cold.collapsed, sampled with 'threads').

Usage: python3 dev/collapsed-summary.py FILE [TOP]

Prints the sampled CPU milliseconds (1 ms interval) in all, per thread (numbers dropped from the names, so the
decode threads add up), and per deepest frame of the plugin's own code (io.github.cudastackbudget), a stack with none
counted as JIT when its thread is a compiler's, else by its innermost frame: where a cold check's CPU goes, the JIT
compilers included.
"""
import collections
import re
import sys


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    threads = collections.Counter()
    own = collections.Counter()
    total = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as lines:
        for line in lines:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            total += n
            frames = stack.split(";")
            thread = re.sub(r"\s*tid=\d+", "", frames[0]).strip("[]")
            thread = re.sub(r"[-#]?\d+$", "", thread)
            threads[thread] += n
            mine = [f for f in frames[1:] if "cudastackbudget" in f]
            if mine:
                key = mine[-1].split("(")[0]
            elif "Compiler" in thread:
                key = "JIT (" + thread + ")"
            else:
                key = frames[-1] if len(frames) > 1 else thread
            own[key] += n
    print(f"sampled CPU: {total} ms")
    print("--- per thread")
    for name, n in threads.most_common(top):
        print(f"{n:8d}  {name}")
    print("--- per deepest frame of the plugin's code (else JIT, else the innermost frame)")
    for name, n in own.most_common(top):
        print(f"{n:8d}  {name}")


if __name__ == "__main__":
    main()
