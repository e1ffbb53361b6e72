#!/usr/bin/env python3
"""Prints which folders of src/ include which (through #include "folder/..."),
and every cycle among them (strongly connected components of two or more
folders, or a folder through others back to itself).

  scripts/folder_graph.py [--dot]     (run from anywhere; stdlib only)

Exit status 1 when there is a cycle, so CI can hold the layering.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)


def graph():
    folders = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)))
    edges = {f: {} for f in folders}
    for f in folders:
        for dirpath, _, files in os.walk(os.path.join(ROOT, f)):
            for name in files:
                if not name.endswith((".h", ".cpp", ".cu", ".cuh")):
                    continue
                path = os.path.join(dirpath, name)
                for target in INCLUDE.findall(open(path, encoding="utf-8").read()):
                    if target in edges and target != f:
                        where = os.path.relpath(path, os.path.join(ROOT, ".."))
                        edges[f].setdefault(target, []).append(where)
    return edges


def cycles(edges):
    """Tarjan's strongly connected components with more than one folder."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def main():
    edges = graph()
    if "--dot" in sys.argv:
        print("digraph src {")
        for f, targets in edges.items():
            for t in targets:
                print(f'  "{f}" -> "{t}";')
        print("}")
        return 0
    for f, targets in edges.items():
        listed = ", ".join(f"{t} ({len(files)})" for t, files in sorted(targets.items()))
        print(f"{f:10s} -> {listed if listed else '(nothing)'}")
    found = cycles(edges)
    if not found:
        print("no cycle")
        return 0
    for comp in found:
        print("cycle among: " + ", ".join(comp))
        for f in comp:
            for t in comp:
                for where in edges[f].get(t, [])[:3]:
                    print(f"  {f} -> {t}: {where}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
