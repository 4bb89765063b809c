"""Small wording helpers the rules' messages share: counts, sizes, number ranges, AIX levels."""

from __future__ import annotations

from collections.abc import Iterable


def aix(level: str) -> tuple[int, ...]:
    """'5.2' -> (5, 2); an unreadable level -> (0,)."""
    try:
        return tuple(int(x) for x in str(level).split("."))
    except ValueError:
        return (0,)


def ranges(numbers: Iterable[int]) -> str:
    """[0, 1, 2, 3, 8] -> '0-3, 8'."""
    nums = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(f"{nums[i]}-{nums[j]}" if j > i else str(nums[i]))
        i = j + 1
    return ", ".join(parts)


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 path', '3 paths' (``many`` for an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def verb(n: int, one: str, many: str) -> str:
    """``one`` for a count of 1, else ``many`` ('is' / 'are')."""
    return one if n == 1 else many


def kb(size: float) -> str:
    """A size in KB as text: 256 -> '256 KB', 1024 -> '1 MB', 1536 -> '1.5 MB'."""
    if size >= 1024 and size % 1024 == 0:
        return f"{int(size // 1024)} MB"
    if size >= 1024:
        return f"{size / 1024:g} MB"
    return f"{size:g} KB"
