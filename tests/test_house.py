"""The house rules of the Python layer (issue 28): no import circle among the modules of
``duelpy``, no import written inside a function to dodge one (only heavy optional libraries
are imported lazily), and every game of the registry in its own package."""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
#: Libraries that may be imported inside a function: heavy or optional, so that ``duel
#: --help`` and ``import duelpy`` stay quick and work without them.
LAZY_OK = ("scipy", "pyarrow", "matplotlib", "sklearn", "ray", "uvicorn", "webbrowser",
           "duelpy.web.app")


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "duelpy").rglob("*.py"):
        name = ".".join(p.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(name: str, path: Path, mods) -> tuple[set, list]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    inner = {id(n) for fn in ast.walk(tree)
             if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))}
    top, lazy = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        if id(node) in inner:
            lazy.extend(targets[:1])
            continue
        for t in targets:
            while t and t not in mods:
                t = t.rpartition(".")[0]
            if t and t != name:
                top.add(t)
    return top, lazy


def test_no_import_circle_in_duelpy():
    mods = _modules()
    graph = {m: _imports(m, p, mods)[0] for m, p in mods.items()}
    # Tarjan's strongly connected components, iteratively
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        work = [(v, iter(graph[v]))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    comps.append(comp)
            elif nxt not in index:
                index[nxt] = low[nxt] = counter[0]
                counter[0] += 1
                stack.append(nxt)
                on.add(nxt)
                work.append((nxt, iter(graph[nxt])))
            elif nxt in on:
                low[node] = min(low[node], index[nxt])

    for v in graph:
        if v not in index:
            visit(v)
    circles = [sorted(c) for c in comps if len(c) > 1]
    assert not circles, circles


def test_only_heavy_optional_libraries_are_imported_inside_functions():
    mods = _modules()
    bad = []
    for name, path in mods.items():
        for target in _imports(name, path, mods)[1]:
            if not target.startswith(LAZY_OK):
                bad.append(f"{name}: {target}")
    assert not bad, bad


def test_every_game_lives_in_its_own_package_on_both_layers():
    from duelpy.games import GAMES
    for name in GAMES:
        assert (SRC / "duelpy" / name / "__init__.py").exists(), name
        assert (SRC / "duelpy" / name / "interface.py").exists(), name
