"""YAML files (compose, Kubernetes, GitHub Actions, GitLab CI, Ansible, cloud-init, conda environments) through
PyYAML's composer: nodes keep their line and column, nothing is constructed (so unknown tags such as Ansible's
`!vault` do not fail the parse), and every document of a multi-document file is kept.

`kinds(facts)` says what a file is, from its path and its top-level keys, so the container and CI rules read only
the files they are about.
"""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from scanner.formats import Parsed

try:  # libyaml's composer when the wheel has it: the same nodes, faster
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

Node = yaml.Node
MappingNode, SequenceNode, ScalarNode = yaml.MappingNode, yaml.SequenceNode, yaml.ScalarNode


# libyaml's composer recurses in C once per level of nesting: some ten thousand levels (`a: [[[[...`, `- - - x`)
# overflow the worker's stack (SIGSEGV, the file lost as a crash). No real file nests this deep.
MAX_DEPTH = 200
# The rules walk the nodes with aliases expanded: a kilobyte of aliases, each naming the previous twice, expands
# to 2**40 nodes ("billion laughs") and would hold the worker until the per-file timeout; an alias inside its own
# anchor's collection makes the walk endless; a chain of aliases nests deeper than the text. A 2 MB file (the
# size cap) of short items has about this many nodes.
MAX_NODES = 1_000_000


def parse(text: str) -> Parsed:
    try:
        depth = _depth(text)
        if depth > MAX_DEPTH:
            return Parsed(None, f"not analysable as YAML (nested more than {MAX_DEPTH} levels deep)")
        docs = [doc for doc in yaml.compose_all(text, Loader=_Loader) if doc is not None]
        expanded = _expanded(docs)
        if expanded is None:
            return Parsed(None, "not analysable as YAML (an alias refers to the collection that contains it)")
        if expanded[0] > MAX_NODES or expanded[1] > MAX_DEPTH:
            return Parsed(
                None,
                f"not analysable as YAML (its aliases expand to more than {MAX_NODES} nodes or {MAX_DEPTH} levels)",
            )
        return Parsed(docs)
    except RecursionError:  # the pure-Python composer, when PyYAML was built without libyaml
        return Parsed(None, "not analysable as YAML (nested too deeply)")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return Parsed(None, f"not valid YAML ({where}{problem})")


def documents(facts) -> list[Node]:
    """The file's documents (empty when it did not parse)."""
    parsed = facts.parsed
    return parsed.value if parsed is not None and parsed.value else []


def line_of(node: Node) -> int:
    return node.start_mark.line + 1


def col_of(node: Node) -> int:
    return node.start_mark.column + 1


def text(node: Node | None) -> str:
    """A scalar's value ("" for anything else)."""
    return node.value if isinstance(node, ScalarNode) else ""


def items(node: Node | None) -> Iterator[tuple[str, Node, Node]]:
    """(key, key node, value node) of a mapping; nothing for anything else."""
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if isinstance(key, ScalarNode):
                yield key.value, key, value


def get(node: Node | None, key: str) -> Node | None:
    for name, _, value in items(node):
        if name == key:
            return value
    return None


def elements(node: Node | None) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


def scalars(node: Node | None) -> Iterator[ScalarNode]:
    """Every scalar under `node` (a scalar, a list's items, a mapping's values), depth first."""
    if isinstance(node, ScalarNode):
        yield node
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from scalars(item)
    elif isinstance(node, MappingNode):
        for _, value in node.value:
            yield from scalars(value)


def _depth(text: str) -> int:
    """How deep the collections nest, from libyaml's event stream (its parser keeps an explicit stack, it does
    not recurse); skipped when the file has too few `[{:-?` to nest past MAX_DEPTH at all."""
    if sum(text.count(char) for char in "[{:-?") <= MAX_DEPTH:
        return 0
    depth = deepest = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return deepest


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


def _expanded(roots: list[Node]) -> tuple[int, int] | None:
    """(nodes, depth) of a walk of `roots` with aliases expanded (the count stops a little past MAX_NODES), or
    None when an alias makes the graph cyclic. Iterative: alias chains may nest far deeper than the text."""
    sizes: dict[int, tuple[int, int]] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False) for root in roots]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            below = [sizes[id(child)] for child in _children(node)]
            sizes[key] = (min(MAX_NODES + 1, 1 + sum(n for n, _ in below)), 1 + max((d for _, d in below), default=0))
            continue
        if key in sizes:
            continue
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                return None
            if id(child) not in sizes:
                stack.append((child, False))
    return sum(sizes[id(root)][0] for root in roots), max((sizes[id(root)][1] for root in roots), default=0)


def walk(node: Node | None, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Node, Node]]:
    """(path of keys, key node, value node) of every mapping entry under `node`; list items add "[]"."""
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if isinstance(key, ScalarNode):
                here = path + (key.value,)
                yield here, key, value
                yield from walk(value, here)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from walk(item, path + ("[]",))


# -- what a YAML file is --------------------------------------------------------------------------------------
def kinds(facts) -> frozenset[str]:
    """Some of "github-actions", "gitlab-ci", "compose", "kubernetes", "ansible", "cloud-init"."""
    cached = facts.cache.get("yaml_kinds")
    if cached is not None:
        return cached
    path = facts.path.lower()
    name = path.rsplit("/", 1)[-1]
    found = set()
    if "/.github/workflows/" in "/" + path:
        found.add("github-actions")
    if name in (".gitlab-ci.yml", ".gitlab-ci.yaml") or "/.gitlab/ci/" in "/" + path:
        found.add("gitlab-ci")
    if facts.lines and facts.lines[0].strip().startswith("#cloud-config"):
        found.add("cloud-init")
    for doc in documents(facts):
        keys = {k for k, _, _ in items(doc)}
        if "jobs" in keys and any(get(job, "runs-on") is not None for _, _, job in items(get(doc, "jobs"))):
            found.add("github-actions")
        if "services" in keys and any(
            get(svc, "image") is not None or get(svc, "build") is not None for _, _, svc in items(get(doc, "services"))
        ):
            found.add("compose")
        if "apiVersion" in keys and "kind" in keys:
            found.add("kubernetes")
        if isinstance(doc, SequenceNode) and _ansible(doc):
            found.add("ansible")
        if (
            "gitlab-ci" not in found
            and keys & {"stages", "default", "workflow"}
            and any(get(job, "script") is not None for _, _, job in items(doc))
        ):
            found.add("gitlab-ci")
    if "/roles/" in "/" + path and ("/tasks/" in path or "/handlers/" in path):
        found.add("ansible")
    cached = facts.cache["yaml_kinds"] = frozenset(found)
    return cached


_ANSIBLE_KEYS = frozenset({"hosts", "tasks", "roles", "become", "gather_facts", "handlers"})


def _ansible(doc: Node) -> bool:
    """A playbook (plays with `hosts:`) or a task list (items naming an `ansible.*` or common module)."""
    for item in elements(doc):
        keys = {k for k, _, _ in items(item)}
        if "hosts" in keys and keys & _ANSIBLE_KEYS - {"hosts"}:
            return True
        if any(k.startswith("ansible.") for k in keys) or (
            "name" in keys
            and keys
            & {
                "apt",
                "yum",
                "dnf",
                "sysctl",
                "shell",
                "command",
                "copy",
                "template",
                "service",
                "systemd",
                "lineinfile",
                "modprobe",
                "package",
            }
        ):
            return True
    return False


def is_ci(facts) -> bool:
    return bool(kinds(facts) & {"github-actions", "gitlab-ci"})
