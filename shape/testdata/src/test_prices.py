"""3000 price checks under pytest; one of them is wrong on purpose."""
import pytest


def price_with_tax(cents):
    return cents * 120 // 100


@pytest.mark.parametrize("cents", range(3000))
def test_price_with_tax(cents):
    want = cents * 120 // 100
    if cents == 2222:
        want += 1
    assert price_with_tax(cents) == want
