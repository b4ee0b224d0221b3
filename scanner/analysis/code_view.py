"""The token view a rule reads (`Context.view`): the main file's tokens, its code tokens with their position index,
and its directives and includes.

`scanner.parsing.tokens.TokenView` holds the lists; this view adds what rules used to rebuild each in its own
way: where a code token sits in `code` (a bisect over the offsets, the offsets listed once per file),
the token `step` positions before or after it, and one attribute of every code token (`per_token("line")`).
One `CodeView` per file (`FileFacts.code_view`), shared by every rule and event of the file.
"""

from __future__ import annotations

import bisect

from scanner.parsing.tokens import Directive, Guard, Include, Token, TokenView


class CodeView:
    __slots__ = ("_view", "_per_token")

    def __init__(self, view: TokenView):
        self._view = view
        self._per_token: dict[str, list] = {}

    # -- the lists ------------------------------------------------------------------------------------
    @property
    def tokens(self) -> list[Token]:
        """Every token of the main file, comments and preprocessor lines included, in file order."""
        return self._view.tokens

    @property
    def code(self) -> list[Token]:
        """The tokens outside preprocessor lines and comments, in file order."""
        return self._view.code

    @property
    def comments(self) -> list[Token]:
        return self._view.comments

    @property
    def directives(self) -> list[Directive]:
        return self._view.directives

    @property
    def includes(self) -> list[Include]:
        return self._view.includes

    @property
    def guards_by_line(self) -> dict[int, tuple[Guard, ...]]:
        return self._view.guards_by_line

    def guards_at(self, line: int) -> tuple[Guard, ...]:
        return self._view.guards_at(line)

    # -- the index ------------------------------------------------------------------------------------
    def per_token(self, name: str) -> list:
        """One attribute of every code token (`offset`, `line`), listed once per file."""
        values = self._per_token.get(name)
        if values is None:
            values = self._per_token[name] = [getattr(t, name) for t in self._view.code]
        return values

    def index(self, tok: Token) -> int:
        """The index of `tok` in `code`, or -1 when it is not a code token."""
        code = self._view.code
        i = bisect.bisect_left(self.per_token("offset"), tok.offset)
        return i if i < len(code) and code[i].offset == tok.offset else -1

    def neighbour(self, tok: Token, step: int) -> Token | None:
        """The code token `step` positions after (positive) or before (negative) `tok`; None past either end or
        when `tok` is not a code token."""
        i = self.index(tok)
        if i < 0:
            return None
        j = i + step
        code = self._view.code
        return code[j] if 0 <= j < len(code) else None
