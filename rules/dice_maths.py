"""Exact distributions of the COBI dice mechanics (no simulation, no cut-off).

D6+ (Easy), in closed form: P(X = v) = 1/6 for v = 1..5 and 5 / 6^(v-4) for v >= 6.
The Easy damage result depends on Z = X_firer - X_target, which is symmetric.

Damage dice (Tank Game), by an integer recurrence. One die scores 0 (a 1), 1 (2-5), or 1 and
a new die (a 6), so its generating function F(x) = sum_h P(h points) x^h satisfies
F = 1/6 + (4/6) x + (1/6) x F, that is F(x) = (1 + 4x) / (6 - x). N dice are independent:
G(x) = F(x)^N = (1 + 4x)^N / (6 - x)^N = sum_h a_h x^h with a_h = P(H = h). Its logarithmic
derivative is G'/G = N (4 / (1 + 4x) + 1 / (6 - x)) = 25N / ((1 + 4x)(6 - x)), so

    (6 + 23x - 4x^2) G'(x) = 25N G(x),

and the coefficient of x^h on both sides gives, for h >= 0 (with a_-1 = 0):

    6 (h+1) a_(h+1) = (25N - 23h) a_h + 4 (h-1) a_(h-1),    a_0 = 6^-N.

Integer scaling. a_h has the denominator 6^(N+h) (a way to score h points rolls N+h dice),
so b_h = 6^(N+h) a_h is an integer; multiplying the recurrence by 6^(N+h) gives

    (h+1) b_(h+1) = (25N - 23h) b_h + 24 (h-1) b_(h-1),    b_0 = 1,

whose right side is always a multiple of h+1 (b_(h+1) is an integer): exact integer division.
The odds of one shot add P(H = h) for h below a threshold L (armour + Destroy), so they want
one common denominator D = 6^(N+L-1): c_h = D a_h = b_h 6^(L-1-h) are integers too, and
multiplying the first recurrence by D gives

    6 (h+1) c_(h+1) = (25N - 23h) c_h + 4 (h-1) c_(h-1),    c_0 = 6^(L-1).

That is L steps of integer arithmetic for all L values, instead of a sum of binomials for each
(the closed form P(H = h) = 6^-(N+h) sum_k C(N,k) C(N+h-k-1, h-k) 24^k, k = 0..min(N,h), which
the tests keep as the independent check). See docs/rules-notes.md, "Exact odds".
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

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


def damage_below(n: int, limit: int) -> tuple[list[int], int]:
    """Numerators of P(H = h) for h = 0..limit-1 over one common denominator 6^(n+limit-1),
    by the recurrence of the module docstring: integer arithmetic, linear in `limit`."""
    if limit <= 0:
        return [], 1
    now, before = 6 ** (limit - 1), 0           # c_h and c_(h-1), from c_0 and c_-1 = 0
    c = [now]
    for h in range(limit - 1):
        # exact: c_(h+1) is an integer
        now, before = ((25 * n - 23 * h) * now + 4 * (h - 1) * before) // (6 * (h + 1)), now
        c.append(now)
    return c, 6 ** (n + limit - 1)


def damage_numerator(n: int, h: int) -> int:
    """6^(n+h) * P(H = h) for n damage dice: an integer."""
    if h < 0:
        return 0
    return damage_below(n, h + 1)[0][h]       # the common denominator is then 6^(n+h)


def damage_dice(n: int, h: int) -> Fraction:
    """P(H = h) for n damage dice."""
    return Fraction(damage_numerator(n, h), 6 ** (n + h))


def damage_dice_at_least(n: int, t: int) -> Fraction:
    """P(H >= t) for n damage dice."""
    numerators, denominator = damage_below(n, t)
    return 1 - Fraction(sum(numerators), denominator)
