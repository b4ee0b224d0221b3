"""Token shapes of the warp-size rules, for files read as tokens only (no syntax tree): what each AST rule finds,
matched on one line's code tokens joined by single spaces (`ctx.line_code`: "int lane = threadIdx . x % 32 ;").
Narrower than the AST checks (no types, no dataflow), so each shape names the thread-id or mask it relies on."""

from __future__ import annotations

import re

# A thread or lane id: threadIdx.x, or a name that says so (tid, lane, lane_id, thread_idx, laneId, threads).
THREAD = r"(?:threadIdx \. [xyz]|blockDim \. [xyz]|\b[A-Za-z_]*(?:tid|[Ll]ane|[Tt]hread|THREAD)[A-Za-z_0-9]*\b)"
LANE_ARITHMETIC = re.compile(THREAD + r" (?P<op>%|/|&|>>)=? (?P<n>\d+[uU]?|[A-Za-z_]\w*)\b")
WARP_CONSTANT = {"%": 32, "/": 32, "&": 31, ">>": 5}
# A warp-stride loop on one line: the index starts from a lane or thread id and steps by 32 (or 32 * k).
WARP_STRIDE = re.compile(
    r"\bfor \( (?:\w+ )*(?P<var>\w+) = (?P<init>[^;]*" + THREAD + r"[^;]*) ; [^;]* ; "
    r"(?P=var) \+= (?:32|32 \* \w+|\w+ \* 32) \)"
)

# `[32]`, `[N / 32]`, `[N >> 5]`, `[32][33]`; not a square matrix tile `[32][32]` (the syntax-tree rule's choice too).
PER_WARP_ARRAY = re.compile(
    r"\b__shared__\b.*?\b(?P<name>\w+) \[ (?:32(?! \] \[ 32 \])|[^\[\]]*? / 32|[^\[\]]*? >> 5) \]"
)

SHUFFLE_CALL = re.compile(r"\b(?P<name>__shfl_(?:down|xor|up)(?:_sync)?) \(")


def call_args(line_code: str, open_paren: int) -> list[str]:
    """The arguments of the call whose "(" is at `open_paren`, split at its top-level commas (to the line's end)."""
    args, depth, current = [], 0, []
    for char in line_code[open_paren + 1 :]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif char == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    args.append("".join(current).strip())
    return args


def shuffle_by_16(line_code: str, names: dict[str, int]) -> re.Match | None:
    """A shuffle whose offset is 16 over a full warp (no explicit width below 32)."""
    for match in SHUFFLE_CALL.finditer(line_code):
        args = call_args(line_code, match.end() - 1)
        offset_at = 2 if match.group("name").endswith("_sync") else 1
        if len(args) <= offset_at or number(args[offset_at].replace(" ", ""), names) != 16:
            continue
        width = number(args[offset_at + 1].replace(" ", ""), names) if len(args) > offset_at + 1 else None
        if width is None or width >= 32:
            return match
    return None


LOOP_FROM_16 = re.compile(
    r"\bfor \( (?:(?:unsigned|int|auto|const|long|short|size_t|uint32_t) )*(?P<var>\w+) = "
    r"\(? ?(?P<init>\w+)(?: (?P<half>/ 2|>> 1))? ?\)? ; "
    r"(?P=var) (?:>|>=|!=) (?:0|1) ; (?P=var) (?:>>= 1|/= 2|= (?P=var) (?:/ 2|>> 1))"
)


def loop_start(match: re.Match, names: dict[str, int]) -> int | None:
    """The first step of a LOOP_FROM_16 match: `16`, `WARP_SIZE / 2` (32 / 2), `kHalf`."""
    value = number(match.group("init"), names)
    if value is not None and match.group("half"):
        value //= 2
    return value


MASKED = (
    r"__(?:shfl(?:_up|_down|_xor)?|ballot|any|all|uni|match_any|match_all|reduce_(?:add|min|max|and|or|xor))"
    r"_sync|__syncwarp"
)
FULL_MASK_LITERAL = r"(?:0[xX][fF]{8}[uUlL]*|~ 0[uU]?|- 1[uU]?|\( unsigned \) - 1|uint32_t \( - 1 \))"

BALLOT_IN_32 = re.compile(
    r"\b(?:unsigned int|unsigned|int|uint32_t|uint) (?P<name>\w+) = (?:\( \w+ \) )?"
    r"(?P<call>__ballot(?:_sync)?|__activemask|__match_any_sync|__match_all_sync) \("
)
POPC_OF_BALLOT = re.compile(r"\b(?P<bit>__popc|__ffs|__clz|__brev) \( (?P<call>__ballot(?:_sync)?|__activemask) \(")

LANE_SHIFT = re.compile(
    r"\b(?:1[uU]?|0[xX]1[uU]?) << (?:\( )?(?P<lane>[A-Za-z_]*(?:[Ll]ane|tid)[A-Za-z_0-9]*|threadIdx \. x)"
    r"(?! (?:&|%) )"
)


def named_values(lines: list[str]) -> dict[str, int]:
    """Names the file defines as a plain integer (`#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;`,
    `const int LOG_WARP = 5;`, `constexpr IdxT kWarpSize{32};`): in token mode the value a name stands for when it is used."""
    values = {}
    for line in lines:
        match = re.search(r"^\s*#\s*define\s+(\w+)\s+\(?\s*(\d+)[uU]?\s*\)?\s*(?://.*)?$", line) or re.search(
            # any type, the project's own too (`constexpr index_t kWarpSz = 32;`, `constexpr IdxT kWarpSize{32};`)
            r"\b(?:static\s+)?(?:constexpr|const)\s+(?:unsigned\s+|signed\s+)?(?:[A-Za-z_][\w:]*\s+)?"
            r"(\w+)\s*(?:=\s*|\{\s*)(\d+)[uU]?\s*\}?\s*;",
            line,
        )
        if match:
            values[match.group(1)] = int(match.group(2))
    return values


def file_values(ctx) -> dict[str, int]:
    """`named_values` of the context's file, computed once per file."""
    values = ctx.memo.get("rocport:named-values")
    if values is None:
        values = ctx.memo["rocport:named-values"] = named_values(ctx.lines)
    return values


def values_at(ctx, line: int) -> dict[str, int]:
    """`file_values` as seen on `line`: a name a function body defines (`constexpr unsigned NB = 32;` in `main`)
    is that body's local, so on a line outside the body it stands for something else (another function's template
    parameter `NB`, instantiated with any size); it has its value only inside."""
    values = file_values(ctx)
    local = _local_definitions(ctx)
    if not local:
        return values
    out = dict(values)
    for name, scopes in local.items():
        inside = [value for first, last, value in scopes if first <= line <= last]
        if inside:
            out[name] = inside[-1]
        elif name not in _file_scope_names(ctx):
            out.pop(name, None)
    return out


def _local_definitions(ctx) -> dict[str, list[tuple[int, int, int]]]:
    """Names `named_values` finds defined inside a function body: name -> (first line, last line of the
    innermost function-body block holding the definition, value)."""
    memo = ctx.memo
    found = memo.get("rocport:local-values")
    if found is not None:
        return found
    found = {}
    values = file_values(ctx)
    code = ctx.view.code
    stack: list[tuple[int, bool]] = []  # per open brace: its line, whether it is (inside) a function body
    blocks: list[tuple[int, int]] = []  # function-body blocks: (first line, last line)
    for i, tok in enumerate(code):
        if tok.text == "{":
            before = code[i - 1].text if i else ""
            body = (bool(stack) and stack[-1][1]) or before in (")", "const", "noexcept", "override", "mutable")
            stack.append((tok.line, body))
        elif tok.text == "}" and stack:
            first, body = stack.pop()
            if body and not (stack and stack[-1][1]):
                blocks.append((first, tok.line))
    if blocks:
        for number, text in enumerate(ctx.lines, 1):
            definition = named_values([text])
            for name, value in definition.items():
                if name not in values or text.lstrip().startswith("#"):
                    continue
                block = next(((a, b) for a, b in blocks if a < number <= b), None)
                if block is not None:
                    found.setdefault(name, []).append((block[0], block[1], value))
    memo["rocport:local-values"] = found
    return found


def _file_scope_names(ctx) -> frozenset[str]:
    """Names `named_values` finds defined outside every function body too (a `#define`, a namespace constant)."""
    memo = ctx.memo
    names = memo.get("rocport:file-scope-values")
    if names is None:
        local = _local_definitions(ctx)
        lines_of = {name: [(a, b) for a, b, _v in scopes] for name, scopes in local.items()}
        names = set()
        for number, text in enumerate(ctx.lines, 1):
            for name in named_values([text]):
                if name in lines_of and not any(a < number <= b for a, b in lines_of[name]):
                    names.add(name)
        names = memo["rocport:file-scope-values"] = frozenset(names)
    return names


def number(text: str, names: dict[str, int]) -> int | None:
    """A literal's value, or the value of a name the file defines as one."""
    text = text.rstrip("uU")
    return int(text) if text.isdigit() else names.get(text)


def full_mask_names(lines: list[str]) -> frozenset[str]:
    """Names the file defines as a 32-bit full mask (`#define FULL_MASK 0xffffffff`, `constexpr unsigned M =
    0xffffffff;`)."""
    names = set()
    for line in lines:
        match = re.search(r"^\s*#\s*define\s+(\w+)\s+\(?\s*(?:0[xX][fF]{8}[uUlL]*|~0[uU]?)\s*\)?\s*(?://.*)?$", line)
        if match is None:
            match = re.search(r"\b(?:unsigned|uint32_t|unsigned int|int)\s+(\w+)\s*=\s*0[xX][fF]{8}[uU]?\s*;", line)
        if match:
            names.add(match.group(1))
    return frozenset(names)


def masked_call_with_32bit_mask(line_code: str, names: frozenset[str]) -> re.Match | None:
    mask = FULL_MASK_LITERAL + (("|" + "|".join(re.escape(n) for n in sorted(names))) if names else "")
    return re.search(rf"\b(?P<name>{MASKED}) \( (?P<mask>{mask})(?= [,)])", line_code)
