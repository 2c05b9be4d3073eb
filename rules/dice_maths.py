"""Exact distributions of the COBI dice mechanics, in closed form (no simulation, no cut-off).

D6+ (Easy): P(X = v) = 1/6 for v = 1..5 and 5 / 6^(v-4) for v >= 6.
The Easy damage result depends on Z = X_firer - X_target, which is symmetric.

Damage dice (Tank Game): for N dice the total H has
P(H = h) = 6^-(N+h) * sum_k C(N,k) C(N+h-k-1, h-k) 24^k,  k = 0..min(N,h).
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

_SIXTH = Fraction(1, 6)
# For m >= 5 every term of P(Z = m) is geometric in 6^-m: P(Z = m) = _Z_TAIL / 6^m.
_Z_TAIL = Fraction(27215, 126)


def d6_plus(v: int) -> Fraction:
    """P(X = v) for one D6+."""
    if v < 1:
        return Fraction(0)
    if v <= 5:
        return _SIXTH
    return Fraction(5, 6 ** (v - 4))


@cache
def _z_exact(m: int) -> Fraction:
    """P(Z = m) for 0 <= m, summed exactly: a finite part and a geometric tail."""
    finite = sum((_SIXTH * d6_plus(y + m) for y in range(1, 6)), Fraction(0))
    # y >= 6: sum of 25 * 6^(8 - 2y - m) = 180 / (7 * 6^(m + 4))
    return finite + Fraction(180, 7 * 6 ** (m + 4))


def d6_plus_difference(m: int) -> Fraction:
    """P(X_firer - X_target = m)."""
    m = abs(m)
    return _z_exact(m) if m < 5 else _Z_TAIL / int(6**m)


def d6_plus_difference_at_least(c: int) -> Fraction:
    """P(X_firer - X_target >= c)."""
    if c >= 5:
        return _Z_TAIL * 6 / (5 * int(6**c))
    if c >= 1:
        total = d6_plus_difference_at_least(5)
        for m in range(c, 5):
            total += _z_exact(m)
        return total
    return 1 - d6_plus_difference_at_least(1 - c)


def damage_numerator(n: int, h: int) -> int:
    """6^(n+h) * P(H = h) for n damage dice: an integer."""
    if n == 0:
        return 1 if h == 0 else 0
    return sum(comb(n, k) * comb(n + h - k - 1, h - k) * 24**k for k in range(min(n, h) + 1))


def damage_below(n: int, limit: int) -> tuple[list[int], int]:
    """Numerators of P(H = h) for h = 0..limit-1 over one common denominator.

    Integer arithmetic throughout, so a whole card's odds cost one division per outcome.
    """
    if limit <= 0:
        return [], 1
    top = n + limit - 1
    return [damage_numerator(n, h) * 6 ** (limit - 1 - h) for h in range(limit)], 6**top


def damage_dice(n: int, h: int) -> Fraction:
    """P(H = h) for n damage dice."""
    return Fraction(damage_numerator(n, h), 6 ** (n + h))


def damage_dice_at_least(n: int, t: int) -> Fraction:
    """P(H >= t) for n damage dice."""
    numerators, denominator = damage_below(n, t)
    return 1 - Fraction(sum(numerators), denominator)
