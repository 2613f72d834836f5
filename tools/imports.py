"""The site's import figures, read from the source (migrations and tests aside).

    python tools/imports.py [ROOT]          the figures for the checkout at ROOT (default: here)
    python tools/imports.py --check [ROOT]  fail unless the imports inside functions keep the rule

The figures: import cycles between parts (docs/architecture.md, "Parts and their
imports"), imports from a shared part into a game app, from a selector into a service,
and project imports inside functions (every ``import`` statement, at the top of a module
or inside a function, naming one of the site's modules); then the largest modules and
functions. The rule ``--check`` keeps (``make lint``): at most ``FUNCTION_IMPORTS`` project
imports inside functions, each with a comment on its line or the line above saying why it
cannot sit at the top of its module.

Parts are the top-level packages, config's URL and ASGI wiring apart from the rest of
config, each of games' packages (crosswords, hunts, tow, ratings, tournaments, engine),
the registry, and games' other modules together. A function's branches are its decision
points plus one (if, loop, except, case, conditional expression, each ``and``/``or``
operand after the first, each comprehension's ``for`` and ``if``).
"""

from __future__ import annotations

import ast
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("accounts", "api", "chat", "config", "friends", "games", "lexicon")
GAME_APPS = {"games.crosswords", "games.hunts", "games.tow"}
CONFIG_WIRING = {"config.urls", "config.asgi", "config.routing"}
FUNCTION_IMPORTS = 20


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported
    path: Path
    line: int
    in_function: bool
    commented: bool


def modules(root: Path) -> dict[str, Path]:
    """The site's modules by dotted name, migrations left out."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def part_of(module: str, root: Path) -> str:
    if module.split(".")[0] == "config":
        return "config wiring" if module in CONFIG_WIRING else "config"
    names = module.split(".")
    if names[0] != "games":
        return names[0]
    if len(names) == 1:
        return "games (shared)"
    if (root / "games" / names[1] / "__init__.py").exists():
        return f"games.{names[1]}"
    if names[1] == "registry":
        return "games.registry"
    return "games (shared)"


def _commented(lines: list[str], line: int) -> bool:
    here = lines[line - 1]
    above = lines[line - 2].strip() if line >= 2 else ""
    return "#" in here or above.startswith("#")


def imports_of(module: str, path: Path, known: dict[str, Path]) -> list[Import]:
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in sorted(_targets(child, package, known)):
                    found.append(
                        Import(module, target, path, child.lineno, in_function, _commented(lines, child.lineno))
                    )
            visit(child, inside)

    visit(tree, False)
    return found


def _targets(node: ast.Import | ast.ImportFrom, package: str, known: dict[str, Path]) -> set[str]:
    """The site's modules one import statement names (a name imported from a module is
    that module; a module imported from a package is the module)."""
    if isinstance(node, ast.Import):
        return {_known_prefix(alias.name, known) for alias in node.names} - {None}
    base = node.module or ""
    if node.level:
        anchor = package.split(".")
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    targets = set()
    for alias in node.names:
        full = f"{base}.{alias.name}" if base else alias.name
        targets.add(full if full in known else _known_prefix(base, known))
    return targets - {None}


def _known_prefix(name: str, known: dict[str, Path]) -> str | None:
    names = name.split(".")
    while names:
        if ".".join(names) in known:
            return ".".join(names)
        names.pop()
    return None


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one part (Tarjan)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return groups


def branches(function: ast.AST) -> int:
    count = 1
    for node in ast.walk(function):
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler, ast.match_case)):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
    return count


def functions(module: str, path: Path):
    """(qualified name, lines, branches) of every function in the module."""
    tree = ast.parse(path.read_text())

    def visit(node: ast.AST, prefix: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}.{child.name}"
                if not isinstance(child, ast.ClassDef):
                    yield name, child.end_lineno - child.lineno + 1, branches(child)
                yield from visit(child, name)

    yield from visit(tree, module)


def figures(root: Path) -> list[Import]:
    known = modules(root)
    every = [i for module, path in known.items() for i in imports_of(module, path, known)]
    project = [i for i in every if i.source != i.target]
    edges = defaultdict(set)
    for i in project:
        a, b = part_of(i.source, root), part_of(i.target, root)
        if a != b:
            edges[a].add(b)
    parts = {part_of(m, root) for m in known}
    print(f"{root}: {len(known)} modules, {len(parts)} parts, {len(project)} project imports")
    groups = _cycles(edges)
    print(f"import cycles between parts: {len(groups)}")
    for group in groups:
        print(f"  one cycle joins {len(group)} parts: {', '.join(group)}")
    shared_to_game = [
        i
        for i in project
        if part_of(i.target, root) in GAME_APPS and part_of(i.source, root) not in GAME_APPS | {"config wiring"}
    ]
    print(f"shared part -> game app imports: {len(shared_to_game)}")
    for (a, b), n in sorted(Counter((i.source, i.target) for i in shared_to_game).items()):
        print(f"  {a} -> {b}" + (f" ({n})" if n > 1 else ""))
    selector_to_service = [
        i for i in project if "selectors" in i.source.split(".") and "services" in i.target.split(".")
    ]
    print(f"selector -> service imports: {len(selector_to_service)}")
    for i in selector_to_service:
        print(f"  {i.source} -> {i.target}")
    inside = _statements([i for i in project if i.in_function])
    print(f"project imports inside functions: {len(inside)} ({sum(not i.commented for i in inside)} without a comment)")
    for path, n in Counter(i.path.relative_to(root) for i in inside).most_common():
        print(f"  {n:3}  {path}")
    print("largest modules (lines):")
    sizes = sorted(((len(p.read_text().splitlines()), m) for m, p in known.items()), reverse=True)
    for lines, module in sizes[:10]:
        print(f"  {lines:5}  {module}")
    every_function = [f for module, path in known.items() for f in functions(module, path)]
    print("longest functions (lines, branches):")
    for name, lines, count in sorted(every_function, key=lambda f: -f[1])[:10]:
        print(f"  {lines:5} {count:4}  {name}")
    print("most branched functions (lines, branches):")
    for name, lines, count in sorted(every_function, key=lambda f: -f[2])[:10]:
        print(f"  {lines:5} {count:4}  {name}")
    return inside


def _statements(imports: list[Import]) -> list[Import]:
    """One entry per import statement (a statement naming two modules counts once)."""
    seen, kept = set(), []
    for i in imports:
        if (i.path, i.line) not in seen:
            seen.add((i.path, i.line))
            kept.append(i)
    return kept


def check(root: Path) -> int:
    known = modules(root)
    every = [i for module, path in known.items() for i in imports_of(module, path, known)]
    inside = _statements([i for i in every if i.in_function and i.source != i.target])
    problems = [
        f"{i.path.relative_to(root)}:{i.line}: an import inside a function says why in a comment"
        for i in inside
        if not i.commented
    ]
    if len(inside) > FUNCTION_IMPORTS:
        problems.append(
            f"{len(inside)} project imports inside functions, at most {FUNCTION_IMPORTS}: move one to its module's top"
        )
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--check":
        sys.exit(check(Path(args[1] if len(args) > 1 else ".").resolve()))
    figures(Path(args[0] if args else ".").resolve())
